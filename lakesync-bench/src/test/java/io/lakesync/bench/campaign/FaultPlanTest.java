package io.lakesync.bench.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FaultPlanTest {

    @Test
    void everyKindComesOncePerRoundInAnOrderThatChanges() {
        FaultPlan plan = new FaultPlan(7, 5, Duration.ofMillis(100), Duration.ofSeconds(2));
        List<List<Integer>> rounds = new ArrayList<>();
        for (int r = 0; r < 20; r++) {
            rounds.add(IntStream.range(0, 5).mapToObj(i -> plan.next().kind()).toList());
        }

        assertThat(rounds).allSatisfy(round -> assertThat(round).containsExactlyInAnyOrder(0, 1, 2, 3, 4));
        assertThat(rounds.stream().distinct().count()).as("orders").isGreaterThan(5);
    }

    @Test
    void holdsStayWithinTheBoundsAndSpreadOverThem() {
        FaultPlan plan = new FaultPlan(1, 3, Duration.ofMillis(200), Duration.ofMillis(1500));
        List<Duration> holds = IntStream.range(0, 1000).mapToObj(i -> plan.next().hold()).toList();

        assertThat(holds).allSatisfy(hold -> assertThat(hold).isBetween(Duration.ofMillis(200), Duration.ofMillis(1500)));
        assertThat(holds).anyMatch(hold -> hold.toMillis() < 300).anyMatch(hold -> hold.toMillis() > 1400);
    }

    @Test
    void theSameSeedPlansTheSameCampaign() {
        FaultPlan one = new FaultPlan(42, 6, Duration.ZERO, Duration.ofSeconds(1));
        FaultPlan two = new FaultPlan(42, 6, Duration.ZERO, Duration.ofSeconds(1));

        for (int i = 0; i < 50; i++) {
            assertThat(one.next()).isEqualTo(two.next());
            assertThat(one.random().nextLong()).isEqualTo(two.random().nextLong());
        }
    }

    @Test
    void aPlanWithoutKindsOrWithReversedBoundsIsRefused() {
        assertThatThrownBy(() -> new FaultPlan(1, 0, Duration.ZERO, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FaultPlan(1, 2, Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
