package io.lakesync.server;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.tiering.TieringService;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import org.apache.fluss.config.ConfigOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One lakesync instance, the composition root: from one validated {@link LakeSyncConfig} it starts the
 * tiering engine and the HTTP API with every capability's {@link HttpRoutes}.
 *
 * <pre>
 *   [new] ── start(config) ──▶ check config, host, port ──▶ start tiering ──▶ start HTTP ──▶ [running]
 *                    │ a step fails: what started is closed, the error rethrown                  │ close()
 *                    ▼                                                                            ▼
 *                [failed]                                   [closed] ◀── stop tiering ◀── stop HTTP
 * </pre>
 */
public final class LakeSyncServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LakeSyncServer.class);
    private static final String BOOTSTRAP_KEY = LakeSyncOptions.FLUSS_PREFIX + ConfigOptions.BOOTSTRAP_SERVERS.key();

    private final TieringService tiering;
    private final HttpApi http;

    private LakeSyncServer(TieringService tiering, HttpApi http) {
        this.tiering = tiering;
        this.http = http;
    }

    public static LakeSyncServer start(LakeSyncConfig config) throws Exception {
        return start(config, Clock.systemUTC());
    }

    /** Starts the instance; {@code clock} drives the uptime that {@code /health} reports. */
    public static LakeSyncServer start(LakeSyncConfig config, Clock clock) throws Exception {
        String bootstrapServers = config.flussClientOptions().get(ConfigOptions.BOOTSTRAP_SERVERS.key());
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new ConfigException(
                    "Missing config key '" + BOOTSTRAP_KEY + "': the address of the Fluss cluster to sync from, "
                            + "for example '" + BOOTSTRAP_KEY + ": fluss-coordinator:9123'.");
        }
        HttpApi.requireCanListen(config);
        TieringService tiering = new TieringService(config);
        tiering.start();
        HttpApi http;
        try {
            http = HttpApi.start(config, routes(bootstrapServers, clock));
        } catch (RuntimeException e) {
            try {
                tiering.close();
            } catch (Exception closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw e;
        }
        LOG.info("lakesync service listening on {}, syncing Fluss cluster {}", http.url(), bootstrapServers);
        return new LakeSyncServer(tiering, http);
    }

    /** Every capability's HTTP routes; new control-plane packages register here. */
    private static List<HttpRoutes> routes(String bootstrapServers, Clock clock) {
        return List.of(new HealthRoutes(bootstrapServers, clock));
    }

    /** The port the HTTP API listens on (the chosen one when {@code service.port} is 0). */
    public int port() {
        return http.port();
    }

    /** Base URL of the HTTP API, for example {@code http://127.0.0.1:8080}. */
    public URI url() {
        return http.url();
    }

    /** Stops taking requests, then stops syncing (tables in progress go back to the coordinator). */
    @Override
    public void close() throws Exception {
        try {
            http.close();
        } finally {
            tiering.close();
        }
        LOG.info("lakesync service stopped");
    }
}
