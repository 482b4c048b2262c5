package io.lakesync.tiering.columnar.write;

import java.util.List;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;

/** Where a Paimon bucket's sequence numbers continue: after its newest file's, as Paimon's writers restore it. */
final class RestoredSequence {

    private RestoredSequence() {}

    /** The largest sequence number among the bucket's files in the newest snapshot, or -1 without any. */
    static long maxSequence(FileStoreTable table, BinaryRow partition, int bucket) {
        Long snapshot = table.snapshotManager().latestSnapshotId();
        if (snapshot == null) {
            return -1;
        }
        List<DataFileMeta> files = table.store().newScan()
                .withSnapshot(snapshot)
                .withPartitionBucket(partition, bucket)
                .plan()
                .files()
                .stream()
                .map(ManifestEntry::file)
                .toList();
        return DataFileMeta.getMaxSequenceNumber(files);
    }
}
