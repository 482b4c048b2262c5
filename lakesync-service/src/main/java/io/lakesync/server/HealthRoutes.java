package io.lakesync.server;

import io.javalin.config.JavalinConfig;
import io.lakesync.auth.PublicRoute;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** {@code GET /health}: liveness of this instance, with what it syncs from and how long it has been up. */
final class HealthRoutes implements HttpRoutes {

    /** The body of {@code GET /health}. */
    record Health(
            String status, String version, String flussBootstrapServers, Instant startedAt, long uptimeSeconds) {}

    private final String flussBootstrapServers;
    private final Instant startedAt;
    private final Clock clock;

    HealthRoutes(String flussBootstrapServers, Clock clock) {
        this.flussBootstrapServers = flussBootstrapServers;
        this.clock = clock;
        this.startedAt = clock.instant();
    }

    @Override
    public void addTo(JavalinConfig config) {
        config.router.mount(router -> router.get("/health", ctx -> ctx.json(health()), PublicRoute.ANYONE));
    }

    Health health() {
        long uptime = Duration.between(startedAt, clock.instant()).toSeconds();
        return new Health("UP", LakeSyncVersion.get(), flussBootstrapServers, startedAt, uptime);
    }
}
