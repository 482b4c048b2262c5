package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ContinuousHoldTest {

    private static final Duration FRESHNESS = Duration.ofSeconds(10);
    private static final Instant HELD_SINCE = Instant.parse("2026-12-06T10:00:00Z");

    private final ContinuousHold hold = new ContinuousHold(true, Duration.ofMinutes(5));

    /** A round of 1 s that ended {@code secondsHeld} after the hand-out, the last record {@code quietSeconds} before. */
    private static ContinuousHold.Round round(long secondsHeld, long quietSeconds) {
        Instant now = HELD_SINCE.plusSeconds(secondsHeld);
        return new ContinuousHold.Round(
                FRESHNESS, HELD_SINCE, now.minusSeconds(quietSeconds), now, false, false, Duration.ofSeconds(1));
    }

    @Test
    void aBusyTablePausesHalfAFreshnessMinusItsRound() {
        assertThat(hold.pause(round(30, 0))).isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void aRoundStoppedAtItsFreshnessCapGoesOnAtOnceAndALongRoundDoesNotWait() {
        ContinuousHold.Round capped = round(30, 0);
        assertThat(hold.pause(new ContinuousHold.Round(FRESHNESS, HELD_SINCE, capped.lastRecordsAt(), capped.now(),
                false, true, Duration.ofSeconds(10)))).isEqualTo(Duration.ZERO);
        assertThat(hold.pause(new ContinuousHold.Round(FRESHNESS, HELD_SINCE, capped.lastRecordsAt(), capped.now(),
                false, false, Duration.ofSeconds(7)))).isEqualTo(Duration.ZERO);
    }

    @Test
    void aTableQuietForAFreshnessGoesBackButAFreshHandOutIsKeptThroughItsFirstEmptyRounds() {
        assertThat(hold.pause(round(30, 10))).isNull();
        ContinuousHold.Round nothingYet =
                new ContinuousHold.Round(FRESHNESS, HELD_SINCE, null, HELD_SINCE.plusSeconds(3), false, false,
                        Duration.ofSeconds(1));
        assertThat(hold.pause(nothingYet)).isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void aShortFreshnessStillKeepsTheTableForASecondOfQuiet() {
        Instant now = HELD_SINCE.plusSeconds(30);
        ContinuousHold.Round quietHalfASecond = new ContinuousHold.Round(Duration.ofMillis(200), HELD_SINCE,
                now.minusMillis(500), now, false, false, Duration.ofMillis(50));
        assertThat(hold.pause(quietHalfASecond)).isEqualTo(Duration.ofMillis(50));
    }

    @Test
    void theLastRoundTheMaxHoldAModeSwitchedOffOrNoFreshnessHandTheTableBack() {
        ContinuousHold.Round busy = round(30, 0);
        assertThat(hold.pause(new ContinuousHold.Round(FRESHNESS, HELD_SINCE, busy.lastRecordsAt(), busy.now(),
                true, false, Duration.ofSeconds(1)))).isNull();
        assertThat(hold.pause(round(300, 0))).isNull();
        assertThat(new ContinuousHold(false, Duration.ofMinutes(5)).pause(busy)).isNull();
        assertThat(hold.pause(new ContinuousHold.Round(null, HELD_SINCE, busy.lastRecordsAt(), busy.now(),
                false, false, Duration.ofSeconds(1)))).isNull();
    }
}
