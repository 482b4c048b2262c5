package io.lakesync.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KillPlanTest {

    private static List<KillPlan.Kill> draw(long seed, int kills) {
        KillPlan plan = new KillPlan(seed, Duration.ofSeconds(8));
        List<KillPlan.Kill> drawn = new ArrayList<>();
        for (int i = 0; i < kills; i++) {
            drawn.add(plan.next());
        }
        return drawn;
    }

    @Test
    void theSameSeedReplaysTheSameKills() {
        assertThat(draw(42, 50)).isEqualTo(draw(42, 50));
        assertThat(draw(42, 50)).isNotEqualTo(draw(43, 50));
    }

    @Test
    void everyAimComesUpAndDelaysStayWithinTheirBounds() {
        Map<KillPlan.Aim, Integer> counts = new EnumMap<>(KillPlan.Aim.class);
        for (KillPlan.Kill kill : draw(7, 1_000)) {
            counts.merge(kill.aim(), 1, Integer::sum);
            long maxMillis = switch (kill.aim()) {
                case RANDOM -> 8_000;
                case RECOVERING -> 4_000;
                default -> kill.aim().maxDelayMillis;
            };
            assertThat(kill.delay().toMillis()).as(kill.toString()).isBetween(0L, maxMillis);
        }
        assertThat(counts).containsOnlyKeys(KillPlan.Aim.values());
        assertThat(counts.get(KillPlan.Aim.RANDOM)).isBetween(250, 350);
        assertThat(counts.get(KillPlan.Aim.RECOVERING)).isBetween(60, 140);
    }

    @Test
    void aimedKillsNameTheStageTheyWaitFor() {
        assertThat(KillPlan.Aim.RANDOM.stage).isNull();
        assertThat(KillPlan.Aim.RECOVERING.stage).isNull();
        assertThat(KillPlan.Aim.PAIMON_COMMIT.stage).isNotNull();
        assertThat(KillPlan.Aim.BETWEEN_COMMITS.stage).isNotNull();
    }
}
