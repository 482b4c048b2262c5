package io.lakesync.fluss.tiering;

import java.util.Map;
import org.apache.fluss.metadata.TableBucket;

/**
 * A lake snapshot to register with the coordinator: the Paimon snapshot id, the prepared offsets file, and
 * per bucket the exclusive end offset tiered and the largest record timestamp tiered (the tablet servers
 * need both for their lake offsets and lag metrics). Buckets without data in this round are absent from
 * the two maps.
 *
 * <p>{@code readable}: the snapshot shows all its rows to readers ({@link io.lakesync.tiering.lake.LakeReadability}),
 * so it is registered as the readable snapshot too, with the same offsets; otherwise it is registered as tiered
 * only and the coordinator keeps the earlier entries, the last readable one among them.
 */
public record LakeSnapshotCommit(
        long tableId,
        long lakeSnapshotId,
        String offsetsPath,
        Map<TableBucket, Long> logEndOffsets,
        Map<TableBucket, Long> maxTimestamps,
        boolean readable) {

    /** A readable snapshot. */
    public LakeSnapshotCommit(
            long tableId,
            long lakeSnapshotId,
            String offsetsPath,
            Map<TableBucket, Long> logEndOffsets,
            Map<TableBucket, Long> maxTimestamps) {
        this(tableId, lakeSnapshotId, offsetsPath, logEndOffsets, maxTimestamps, true);
    }
}
