package io.lakesync.tiering;

import io.lakesync.retry.RetryBackoff;
import java.time.Duration;
import javax.annotation.Nullable;

/**
 * A held table's run of failed rounds, and what each failure leads to: a retry after a doubling backoff, or
 * {@link FailureKind#BLOCKED} with a recheck interval — at once for a blocking failure, and for a bad record
 * once the same one failed {@link FailureKind#BAD_RECORD_ATTEMPTS} times in a row. A success ends the run.
 * Not thread-safe: the table calls it holding its lock.
 */
final class FailureStreak {

    /**
     * What to do after a failure.
     *
     * @param reported the kind the listener hears ({@code BLOCKED} for a bad record tried often enough)
     * @param retryIn how long until the next attempt
     * @param news whether the reason or the reported kind changed since the previous failure (worth a log line)
     */
    record Next(FailureKind reported, Duration retryIn, boolean news) {}

    private final RetryBackoff backoff;
    private final Duration blockedRecheck;
    private int failuresInARow;
    private int identicalFailuresInARow;
    @Nullable private String lastReason;
    @Nullable private FailureKind lastReported;

    FailureStreak(RetryBackoff backoff, Duration blockedRecheck) {
        this.backoff = backoff;
        this.blockedRecheck = blockedRecheck;
    }

    /** A round failed with {@code kind} (not {@link FailureKind#LOST}: such a table goes back) and {@code reason}. */
    Next failed(FailureKind kind, String reason) {
        failuresInARow++;
        identicalFailuresInARow = reason.equals(lastReason) ? identicalFailuresInARow + 1 : 1;
        boolean blocked = kind == FailureKind.BLOCKED
                || (kind == FailureKind.BAD_RECORD && identicalFailuresInARow >= FailureKind.BAD_RECORD_ATTEMPTS);
        FailureKind reported = blocked ? FailureKind.BLOCKED : kind;
        Next next = new Next(reported, blocked ? blockedRecheck : backoff.delay(failuresInARow),
                !reason.equals(lastReason) || reported != lastReported);
        lastReason = reason;
        lastReported = reported;
        return next;
    }

    /** A round succeeded: returns how many failed before it (0 if none), and starts afresh. */
    int succeeded() {
        int failures = lastReason == null ? 0 : failuresInARow;
        failuresInARow = 0;
        identicalFailuresInARow = 0;
        lastReason = null;
        lastReported = null;
        return failures;
    }
}
