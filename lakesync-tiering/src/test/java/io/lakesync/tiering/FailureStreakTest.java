package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.retry.RetryBackoff;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FailureStreakTest {

    private static final Duration RECHECK = Duration.ofMinutes(1);

    private final FailureStreak streak =
            new FailureStreak(new RetryBackoff(Duration.ofSeconds(1), Duration.ofSeconds(10), () -> 0.5), RECHECK);

    @Test
    void transientFailuresRetryAfterADoublingBackoffAndLogOnlyWhatChanged() {
        FailureStreak.Next first = streak.failed(FailureKind.TRANSIENT, "Connection refused");
        FailureStreak.Next second = streak.failed(FailureKind.TRANSIENT, "Connection refused");
        FailureStreak.Next third = streak.failed(FailureKind.TRANSIENT, "Timed out");

        assertThat(first).isEqualTo(new FailureStreak.Next(FailureKind.TRANSIENT, Duration.ofSeconds(1), true));
        assertThat(second).isEqualTo(new FailureStreak.Next(FailureKind.TRANSIENT, Duration.ofSeconds(2), false));
        assertThat(third).isEqualTo(new FailureStreak.Next(FailureKind.TRANSIENT, Duration.ofSeconds(4), true));
    }

    @Test
    void aBlockingFailureBlocksAtOnceAndIsRecheckedOnItsInterval() {
        assertThat(streak.failed(FailureKind.BLOCKED, "Permission denied"))
                .isEqualTo(new FailureStreak.Next(FailureKind.BLOCKED, RECHECK, true));
    }

    @Test
    void theSameBadRecordBlocksOnlyAfterItFailedEnoughTimesInARow() {
        for (int attempt = 1; attempt < FailureKind.BAD_RECORD_ATTEMPTS; attempt++) {
            assertThat(streak.failed(FailureKind.BAD_RECORD, "bad row at offset 7").reported())
                    .isEqualTo(FailureKind.BAD_RECORD);
        }
        FailureStreak.Next blocked = streak.failed(FailureKind.BAD_RECORD, "bad row at offset 7");
        assertThat(blocked).isEqualTo(new FailureStreak.Next(FailureKind.BLOCKED, RECHECK, true));

        // Another bad record starts its own count.
        assertThat(streak.failed(FailureKind.BAD_RECORD, "bad row at offset 9").reported())
                .isEqualTo(FailureKind.BAD_RECORD);
    }

    @Test
    void aSuccessTellsHowManyFailedBeforeItAndStartsAfresh() {
        assertThat(streak.succeeded()).isZero();
        streak.failed(FailureKind.TRANSIENT, "Connection refused");
        streak.failed(FailureKind.TRANSIENT, "Connection refused");

        assertThat(streak.succeeded()).isEqualTo(2);
        assertThat(streak.failed(FailureKind.TRANSIENT, "Connection refused"))
                .isEqualTo(new FailureStreak.Next(FailureKind.TRANSIENT, Duration.ofSeconds(1), true));
    }
}
