package io.lakesync.tiering.round;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RoundPhasesTest {

    private final StepClock clock = new StepClock();

    @Test
    void eachPhaseLastsFromTheEndOfThePreviousOneAndRepeatedPhasesAddUp() {
        RoundPhases phases = new RoundPhases(clock);
        clock.advance(Duration.ofMillis(12));
        phases.ended("table info");
        clock.advance(Duration.ofMillis(40));
        phases.ended("lake load");
        clock.advance(Duration.ofMillis(5));
        phases.ended("table info");

        assertThat(phases.durations())
                .containsEntry("table info", Duration.ofMillis(17))
                .containsEntry("lake load", Duration.ofMillis(40))
                .hasSize(2);
        assertThat(phases).hasToString("table info 17 ms, lake load 40 ms");
    }

    @Test
    void aResultMadeOutsideARoundHasNoPhases() {
        assertThat(RoundPhases.none().durations()).isEmpty();
        assertThat(RoundPhases.none()).hasToString("");
    }
}
