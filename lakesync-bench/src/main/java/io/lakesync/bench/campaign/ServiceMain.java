package io.lakesync.bench.campaign;

import io.lakesync.bench.contender.ChildArgs;
import io.lakesync.bench.contender.ChildProtocol;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.server.LakeSyncServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Entry point of one lakesync instance of the campaign, in its own JVM: the whole service ({@link LakeSyncServer}:
 * engine, status API, shared state) from the lakesync settings it is given as {@code key=value} arguments, its
 * clock set {@value #CLOCK_OFFSET} milliseconds off (the campaign's clock skew, without a flag in the service).
 * Speaks {@link ChildProtocol}: READY once it serves, STATS and exit after STOP, FAILED if it cannot start.
 */
public final class ServiceMain {

    /** The argument that sets the instance's clock off, in milliseconds (negative: behind); not a service setting. */
    static final String CLOCK_OFFSET = "clock.offset-ms";

    private ServiceMain() {}

    public static void main(String[] argv) {
        ChildProtocol protocol = ChildProtocol.onStandardOutput();
        int exitCode = 0;
        try {
            Map<String, String> settings = new LinkedHashMap<>(ChildArgs.parse(argv).values());
            Duration offset = Duration.ofMillis(Long.parseLong(settings.getOrDefault(CLOCK_OFFSET, "0")));
            settings.remove(CLOCK_OFFSET);
            Clock clock = Clock.offset(Clock.systemUTC(), offset);
            try (LakeSyncServer server = LakeSyncServer.start(LakeSyncConfig.fromMap(settings, "campaign instance"), clock)) {
                protocol.send(ChildProtocol.Type.READY, Map.of("url", server.url().toString()));
                ChildProtocol.awaitStop(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
            }
            protocol.send(ChildProtocol.Type.STATS, Map.of());
        } catch (Throwable t) {
            t.printStackTrace();
            protocol.send(ChildProtocol.Type.FAILED, Map.of("message", String.valueOf(t)));
            exitCode = 1;
        }
        System.err.flush();
        // The Fluss client and the HTTP server leave non-daemon threads behind.
        Runtime.getRuntime().halt(exitCode);
    }
}
