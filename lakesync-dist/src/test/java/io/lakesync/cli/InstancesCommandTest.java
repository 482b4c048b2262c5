package io.lakesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code lakesync instances} shows each heartbeat's age as the service measured it on the state database's
 * clock. The answers come from a stand-in of the service whose heartbeats were stamped by a database clock a
 * year behind this machine's: the CLI must not age them with its own clock.
 */
class InstancesCommandTest {

    private HttpServer service;

    @AfterEach
    void stopService() {
        if (service != null) {
            service.stop(0);
        }
    }

    @Test
    void heartbeatAgeIsTheServicesNotThisMachines() throws Exception {
        service = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        service.createContext("/api/v1/instances", exchange -> {
            byte[] body = ("{\"self\": \"a\", \"instances\": ["
                    + instance("a", "2025-12-06T10:00:00Z", 1500, "ALIVE", true) + ", "
                    + instance("b", "2025-12-06T09:58:00Z", 125_000, "DEAD", false) + "]}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("content-type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        service.start();

        CliRun run = CliRun.of("instances", "--url", "http://127.0.0.1:" + service.getAddress().getPort(),
                "--token", "viewer-token");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("a (this)").contains("1.5s ago").contains("2m 5s ago")
                .doesNotContain("h ago");
    }

    private static String instance(String id, String heartbeatAt, long ageMillis, String state, boolean leader) {
        return "{\"id\": \"" + id + "\", \"host\": \"host-" + id + "\", \"url\": \"http://host-" + id + ":8080\", "
                + "\"version\": \"1.0\", \"startedAt\": \"2025-12-06T09:00:00Z\", \"heartbeatAt\": \"" + heartbeatAt
                + "\", \"heartbeatAgeMillis\": " + ageMillis + ", \"stoppedAt\": null, \"tablesHeld\": [], "
                + "\"capacity\": 4, \"state\": \"" + state + "\", \"leader\": " + leader + "}";
    }
}
