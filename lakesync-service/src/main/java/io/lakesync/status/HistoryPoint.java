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

    static HistoryPoint of(TableStatus status) {
        return new HistoryPoint(
                status.observedAt(),
                status.state(),
                status.syncLatency().toMillis(),
                status.pendingRecords(),
                status.lakeSnapshotId(),
                status.activity().rowsTiered());
    }
}
