package io.lakesync.tiering.coordinator;

import java.util.Map;
import org.apache.fluss.metadata.TableBucket;

/**
 * A lake snapshot to register with the coordinator: the Paimon snapshot id, the prepared offsets file, and
 * per bucket the exclusive end offset tiered and the largest record timestamp tiered (the tablet servers
 * need both for their lake offsets and lag metrics). Buckets without data in this round are absent from
 * the two maps.
 */
public record LakeSnapshotCommit(
        long tableId,
        long lakeSnapshotId,
        String offsetsPath,
        Map<TableBucket, Long> logEndOffsets,
        Map<TableBucket, Long> maxTimestamps) {}
