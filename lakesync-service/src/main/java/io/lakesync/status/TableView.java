package io.lakesync.status;

import io.lakesync.tiering.maintenance.LakeFigures;
import io.lakesync.tiering.maintenance.MaintenanceReport;
import java.time.Instant;
import java.util.List;
import javax.annotation.Nullable;

/**
 * A table's status as the JSON API shows it: durations in milliseconds, instants as ISO-8601. {@code observedAt}
 * is when the figures were read; {@code stale} says the observations since then failed.
 */
public record TableView(
        String database,
        String table,
        long tableId,
        TableState state,
        String reason,
        String action,
        long freshnessMs,
        long syncLatencyMs,
        long checkpointAgeMs,
        @Nullable Long lakeSnapshotId,
        @Nullable Instant lakeCommittedAt,
        long pendingRecords,
        List<BucketCheckpoint> buckets,
        Activity activity,
        Instant observedAt,
        boolean stale,
        boolean heldBackByQuota,
        @Nullable List<HistoryPoint> history) {

    /** What the engines of all instances did with the table; {@code holder} ran its latest round. */
    public record Activity(
            boolean syncing,
            int consecutiveFailures,
            @Nullable String lastFailureKind,
            @Nullable String lastError,
            @Nullable Instant nextRetryAt,
            long rounds,
            long failures,
            long rowsTiered,
            long bytesTiered,
            long filesWritten,
            @Nullable Long lastRoundDurationMs,
            @Nullable Instant lastRoundEndedAt,
            double lastRoundRowsPerSecond,
            @Nullable String holder,
            @Nullable Maintenance maintenance) {}

    /** The lake table's shape after the last maintenance pass, and what the passes reclaimed. */
    public record Maintenance(
            long dataFiles,
            long dataBytes,
            long averageFileBytes,
            double smallFileRatio,
            long snapshotsKept,
            @Nullable Instant lastPassAt,
            @Nullable Instant lastCompaction,
            @Nullable Instant lastExpiry,
            long bytesReclaimedTotal,
            @Nullable String problem) {

        static @Nullable Maintenance of(@Nullable MaintenanceReport report) {
            if (report == null) {
                return null;
            }
            LakeFigures f = report.figures();
            return new Maintenance(f.dataFiles(), f.dataBytes(), f.averageFileBytes(), f.smallFileRatio(),
                    f.snapshotsKept(), report.finishedAt(), report.lastCompaction(), report.lastExpiry(),
                    report.bytesReclaimedTotal(), report.problem());
        }
    }

    public static TableView of(TableStatus status, @Nullable List<HistoryPoint> history) {
        EngineActivity a = status.activity();
        return new TableView(
                status.database(),
                status.table(),
                status.tableId(),
                status.state(),
                status.reason(),
                status.action(),
                status.freshness().toMillis(),
                status.syncLatency().toMillis(),
                status.checkpointAge().toMillis(),
                status.lakeSnapshotId(),
                status.lakeCommittedAt(),
                status.pendingRecords(),
                status.buckets(),
                new Activity(
                        a.syncing(),
                        a.consecutiveFailures(),
                        a.lastFailureKind() == null ? null : a.lastFailureKind().name(),
                        a.lastError(),
                        a.nextRetryAt(),
                        a.rounds(),
                        a.failures(),
                        a.rowsTiered(),
                        a.bytesTiered(),
                        a.filesWritten(),
                        a.lastRoundDuration() == null ? null : a.lastRoundDuration().toMillis(),
                        a.lastRoundEndedAt(),
                        a.lastRoundRowsPerSecond(),
                        a.holder(),
                        Maintenance.of(a.maintenance())),
                status.observedAt(),
                status.stale(),
                status.heldBackByQuota(),
                history);
    }
}
