package io.lakesync.server;

import io.javalin.config.JavalinConfig;
import io.lakesync.auth.AccessDecision;
import io.lakesync.auth.Authenticator;
import io.lakesync.auth.PublicRoute;
import io.lakesync.auth.Role;
import io.lakesync.tiering.EngineHealth;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code GET /health}: whether this instance does its job, with what it syncs from and how long it has been up.
 *
 * <pre>
 *   UP ─────── everything observed, the engine (if switched on) reaches the coordinator     HTTP 200
 *   DEGRADED ─ Fluss or the lake does not answer, or tables are UNKNOWN; the instance itself HTTP 200
 *              works and recovers on its own, so a load balancer must not restart it
 *   DOWN ───── the tiering engine reports itself unhealthy                                   HTTP 503
 * </pre>
 *
 * {@code reasons} names every problem, empty when UP. Probes send no token, and the rest (reasons, the Fluss
 * cluster, version, uptime) tells an outsider what the instance syncs from: a call without a token that may read
 * (see {@link Authenticator}) gets only {@code {"status": ...}}, with the same HTTP status.
 */
final class HealthRoutes implements HttpRoutes {

    /** The body of {@code GET /health} for a caller without read access. */
    record Status(String status) {}

    /** The body of {@code GET /health} for a caller that may read. */
    record Health(
            String status,
            List<String> reasons,
            String version,
            String flussBootstrapServers,
            Instant startedAt,
            long uptimeSeconds) {}

    private final String flussBootstrapServers;
    private final Instant startedAt;
    private final Clock clock;
    private final Supplier<List<String>> statusProblems;
    private final Supplier<Optional<EngineHealth>> engineHealth;
    private final Authenticator readers;

    /**
     * @param statusProblems why the status is incomplete (Fluss or lake unreachable, tables UNKNOWN)
     * @param engineHealth the running engine's health; empty while the service is switched off
     * @param readers who sees more than the status: callers it allows to read
     */
    HealthRoutes(
            String flussBootstrapServers,
            Clock clock,
            Supplier<List<String>> statusProblems,
            Supplier<Optional<EngineHealth>> engineHealth,
            Authenticator readers) {
        this.flussBootstrapServers = flussBootstrapServers;
        this.clock = clock;
        this.startedAt = clock.instant();
        this.statusProblems = statusProblems;
        this.engineHealth = engineHealth;
        this.readers = readers;
    }

    @Override
    public void addTo(JavalinConfig config) {
        config.router.mount(router -> router.get("/health", ctx -> {
            Health health = health();
            boolean mayRead = readers.authorize(ctx.header("Authorization"), Role.VIEWER)
                    instanceof AccessDecision.Allowed;
            ctx.status(health.status().equals("DOWN") ? 503 : 200)
                    .json(mayRead ? health : new Status(health.status()));
        }, PublicRoute.ANYONE));
    }

    Health health() {
        long uptime = Duration.between(startedAt, clock.instant()).toSeconds();
        List<String> reasons = new ArrayList<>();
        Optional<EngineHealth> engine = engineHealth.get();
        boolean down = engine.isPresent() && !engine.get().healthy();
        if (down) {
            reasons.add("Tiering engine: " + engine.get().reason());
        }
        reasons.addAll(statusProblems.get());
        String status = down ? "DOWN" : reasons.isEmpty() ? "UP" : "DEGRADED";
        return new Health(status, reasons, LakeSyncVersion.get(), flussBootstrapServers, startedAt, uptime);
    }
}
