package io.lakesync.tiering.round;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RoundPhasesTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T12:00:00Z"));

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
