package io.lakesync.status;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.fluss.metadata.TablePath;

/**
 * What the cluster says about one table at {@code observedAt}: whether lake sync is on, the readable lake
 * snapshot and when Paimon committed it, per-bucket checkpoints, and the timestamp of the oldest record not
 * yet readable in the lake (null when nothing is pending or it could not be read).
 */
public record TableObservation(
        TablePath path,
        long tableId,
        boolean enabled,
        Duration freshness,
        @Nullable Long lakeSnapshotId,
        @Nullable Instant lakeCommittedAt,
        List<BucketCheckpoint> buckets,
        @Nullable Instant oldestPendingRecordAt,
        Instant observedAt) {

    public long pendingRecords() {
        return buckets.stream().mapToLong(BucketCheckpoint::pendingRecords).sum();
    }
}
