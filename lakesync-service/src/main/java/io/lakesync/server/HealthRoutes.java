package io.lakesync.server;

import io.javalin.config.JavalinConfig;
import io.lakesync.auth.PublicRoute;
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
 * {@code reasons} names every problem, empty when UP.
 */
final class HealthRoutes implements HttpRoutes {

    /** The body of {@code GET /health}. */
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

    /**
     * @param statusProblems why the status is incomplete (Fluss or lake unreachable, tables UNKNOWN)
     * @param engineHealth the running engine's health; empty while the service is switched off
     */
    HealthRoutes(
            String flussBootstrapServers,
            Clock clock,
            Supplier<List<String>> statusProblems,
            Supplier<Optional<EngineHealth>> engineHealth) {
        this.flussBootstrapServers = flussBootstrapServers;
        this.clock = clock;
        this.startedAt = clock.instant();
        this.statusProblems = statusProblems;
        this.engineHealth = engineHealth;
    }

    @Override
    public void addTo(JavalinConfig config) {
        config.router.mount(router -> router.get("/health", ctx -> {
            Health health = health();
            ctx.status(health.status().equals("DOWN") ? 503 : 200).json(health);
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
