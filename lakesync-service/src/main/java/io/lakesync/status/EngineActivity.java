package io.lakesync.status;

import io.lakesync.tiering.FailureKind;
import java.time.Duration;
import java.time.Instant;
import javax.annotation.Nullable;

/**
 * What this instance's engine did with a table: whether a round runs now, the failures since the last
 * success, and running totals. Immutable; each engine event produces the next value.
 */
public record EngineActivity(
        boolean syncing,
        int consecutiveFailures,
        @Nullable FailureKind lastFailureKind,
        @Nullable String lastError,
        @Nullable Instant nextRetryAt,
        long rounds,
        long failures,
        long rowsTiered,
        long bytesTiered,
        long filesWritten,
        @Nullable Duration lastRoundDuration,
        @Nullable Instant lastRoundEndedAt,
        double lastRoundRowsPerSecond) {

    public static final EngineActivity NONE =
            new EngineActivity(false, 0, null, null, null, 0, 0, 0, 0, 0, null, null, 0);

    EngineActivity started() {
        return new EngineActivity(true, consecutiveFailures, lastFailureKind, lastError, null, rounds, failures,
                rowsTiered, bytesTiered, filesWritten, lastRoundDuration, lastRoundEndedAt, lastRoundRowsPerSecond);
    }

    EngineActivity succeeded(long rows, long bytes, int files, Duration duration, Instant endedAt) {
        double rate = duration.isZero() ? 0 : rows * 1000.0 / duration.toMillis();
        return new EngineActivity(false, 0, null, null, null, rounds + 1, failures, rowsTiered + rows,
                bytesTiered + bytes, filesWritten + files, duration, endedAt, rate);
    }

    EngineActivity failed(FailureKind kind, String error, @Nullable Instant retryAt) {
        return new EngineActivity(false, consecutiveFailures + 1, kind, error, retryAt, rounds, failures + 1,
                rowsTiered, bytesTiered, filesWritten, lastRoundDuration, lastRoundEndedAt, lastRoundRowsPerSecond);
    }

    /** The table left this instance (given back, lost); totals stay, the failure streak ends. */
    EngineActivity released() {
        return new EngineActivity(false, 0, null, null, null, rounds, failures, rowsTiered, bytesTiered,
                filesWritten, lastRoundDuration, lastRoundEndedAt, lastRoundRowsPerSecond);
    }
}
