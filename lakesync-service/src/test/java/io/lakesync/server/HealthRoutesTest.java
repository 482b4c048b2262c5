package io.lakesync.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.state.ManualClock;
import io.lakesync.tiering.EngineHealth;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** How {@code /health} combines the engine's health and the status problems (over HTTP: LakeSyncServerTest, FlussRestartTest). */
class HealthRoutesTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T19:00:00Z"));
    private final List<String> problems = new ArrayList<>();
    private final AtomicReference<Optional<EngineHealth>> engine = new AtomicReference<>(Optional.empty());
    private final HealthRoutes routes = new HealthRoutes("fluss:9123", clock, () -> List.copyOf(problems), engine::get);

    @Test
    void upWhileEverythingIsObservedWithTheEngineOffOrHealthy() {
        assertThat(routes.health().status()).isEqualTo("UP");
        engine.set(Optional.of(new EngineHealth(true, null, clock.instant())));
        clock.advance(Duration.ofSeconds(90));
        HealthRoutes.Health health = routes.health();
        assertThat(health.status()).isEqualTo("UP");
        assertThat(health.reasons()).isEmpty();
        assertThat(health.uptimeSeconds()).isEqualTo(90);
    }

    @Test
    void degradedWithTheReasonsWhileFlussOrTheLakeDoesNotAnswer() {
        engine.set(Optional.of(new EngineHealth(true, null, clock.instant())));
        problems.add("Cannot reach Fluss since 2026-11-30T19:09:46Z: Connection refused");
        problems.add("2 table(s) UNKNOWN: fluss.a, fluss.b");
        HealthRoutes.Health health = routes.health();
        assertThat(health.status()).isEqualTo("DEGRADED");
        assertThat(health.reasons()).containsExactlyElementsOf(problems);
    }

    @Test
    void downWhenTheEngineSaysItIsUnhealthy() {
        engine.set(Optional.of(new EngineHealth(false, "No heartbeat reached the coordinator for 2 min.", null)));
        problems.add("Cannot reach Fluss since 2026-11-30T19:09:46Z: Connection refused");
        HealthRoutes.Health health = routes.health();
        assertThat(health.status()).isEqualTo("DOWN");
        assertThat(health.reasons()).containsExactly(
                "Tiering engine: No heartbeat reached the coordinator for 2 min.",
                "Cannot reach Fluss since 2026-11-30T19:09:46Z: Connection refused");
    }
}
