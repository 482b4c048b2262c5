package io.lakesync.status;

import io.lakesync.tiering.FailureKind;
import io.lakesync.tiering.maintenance.MaintenanceReport;
import java.time.Duration;
import java.time.Instant;
import javax.annotation.Nullable;

/**
 * What the engines did with a table: whether a round runs now, the failures since the last success, and running
 * totals over all instances, with {@code holder} the instance that ran its latest round (null before any), and the
 * last lake maintenance pass this instance ran. Immutable; each engine event is an {@link ActivityChange} that
 * produces the next value.
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
        double lastRoundRowsPerSecond,
        @Nullable String holder,
        @Nullable MaintenanceReport maintenance) {

    public static final EngineActivity NONE =
            new EngineActivity(false, 0, null, null, null, 0, 0, 0, 0, 0, null, null, 0, null, null);

    /** Rounds ended so far, successful or failed: a table's lake snapshot changes only in one of them. */
    long roundsEnded() {
        return rounds + failures;
    }

    /** A maintenance pass ended; a failed one keeps the figures of the last pass that read them. */
    EngineActivity maintained(MaintenanceReport report) {
        MaintenanceReport kept = report.problem() != null && maintenance != null
                ? new MaintenanceReport(report.tablePath(), report.finishedAt(), report.duration(), maintenance.figures(),
                        0, 0, 0, 0, report.bytesReclaimedTotal(), report.lastCompaction(), report.lastExpiry(),
                        report.problem())
                : report;
        return new EngineActivity(syncing, consecutiveFailures, lastFailureKind, lastError, nextRetryAt, rounds,
                failures, rowsTiered, bytesTiered, filesWritten, lastRoundDuration, lastRoundEndedAt,
                lastRoundRowsPerSecond, holder, kept);
    }

    /** The same activity with {@code report} as its last maintenance pass. */
    EngineActivity withMaintenance(@Nullable MaintenanceReport report) {
        return new EngineActivity(syncing, consecutiveFailures, lastFailureKind, lastError, nextRetryAt, rounds,
                failures, rowsTiered, bytesTiered, filesWritten, lastRoundDuration, lastRoundEndedAt,
                lastRoundRowsPerSecond, holder, report);
    }
}
