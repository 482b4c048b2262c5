package io.lakesync.status;

import java.time.Instant;
import javax.annotation.Nullable;

/** One sample of a table's status, kept for charts. */
public record HistoryPoint(
        Instant at,
        TableState state,
        long syncLatencyMs,
        long pendingRecords,
        @Nullable Long lakeSnapshotId,
        long rowsTiered) {

    /** The sample taken at {@code at} (the figures may be older: see {@link TableStatus#stale()}). */
    static HistoryPoint of(TableStatus status, Instant at) {
        return new HistoryPoint(
                at,
                status.state(),
                status.syncLatency().toMillis(),
                status.pendingRecords(),
                status.lakeSnapshotId(),
                status.activity().rowsTiered());
    }
}
