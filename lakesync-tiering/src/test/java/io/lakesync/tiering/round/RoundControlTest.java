package io.lakesync.tiering.round;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The round's time budget runs from the start of reading, not from the start of the round. */
class RoundControlTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T12:00:00Z"));
    private final RoundControl control = new RoundControl(clock, Duration.ofSeconds(3));

    @Test
    void budgetStartsWhenReadingStartsNotWhenTheTableIsLoaded() {
        control.limitDuration(Duration.ofMillis(50));
        clock.advance(Duration.ofMillis(400)); // loading the Paimon table and planning
        control.startReading();
        RoundControl groups = control.child();

        clock.advance(Duration.ofMillis(49));
        assertThat(control.pastDeadline()).isFalse();
        assertThat(groups.pastDeadline()).isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(control.pastDeadline()).isTrue();
        assertThat(groups.pastDeadline()).isTrue();
        assertThat(control.maxDuration()).isEqualTo(Duration.ofMillis(50));
    }

    @Test
    void eachRoundOfAHeldTableGetsTheWholeBudget() {
        control.limitDuration(Duration.ofMillis(50));
        control.startReading();
        clock.advance(Duration.ofMillis(60));
        assertThat(control.pastDeadline()).isTrue();

        control.limitDuration(Duration.ofMillis(50));
        clock.advance(Duration.ofMillis(500));
        control.startReading();
        assertThat(control.pastDeadline()).isFalse();
    }

    @Test
    void withoutALimitReadingNeverTimesOut() {
        control.startReading();
        clock.advance(Duration.ofDays(365));
        assertThat(control.pastDeadline()).isFalse();
    }

    @Test
    void cancellingAGroupControlLeavesTheRoundRunningButCancellingTheRoundStopsTheGroups() {
        RoundControl groups = control.child();
        groups.cancel("a bucket group failed");
        assertThat(control.isCancelled()).isFalse();
        assertThatThrownBy(groups::throwIfCancelled).isInstanceOf(FencedRoundException.class).hasMessage("a bucket group failed");

        RoundControl next = control.child();
        control.cancel("shutting down");
        assertThat(next.isCancelled()).isTrue();
        assertThatThrownBy(next::throwIfCancelled).hasMessage("shutting down");
    }
}
