package io.lakesync.tiering.retained;

import io.lakesync.tiering.lake.LakeTableIncompatibleException;
import io.lakesync.tiering.lake.TieringSnapshot;
import java.io.FileNotFoundException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.paimon.Snapshot;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.StreamTableScan;
import org.apache.paimon.utils.SnapshotManager;

/**
 * Works out from the lake itself how far a table was tiered, for when the offsets file of its checkpoint is
 * gone: per bucket, one past the largest {@code __offset} among the rows its own tiering snapshots added
 * (those after the newest snapshot of another, dropped table). A log range that ended in empty batches is
 * read again, which adds nothing.
 *
 * <p>Only provable cases: a partitioned table, or one whose older snapshots expired (so rows of another
 * table may hide before them), is refused with the reason.
 */
final class LakeOffsetsRecovery {

    private static final String BUCKET_COLUMN = "__bucket";
    private static final String OFFSET_COLUMN = "__offset";

    private LakeOffsetsRecovery() {}

    static Map<TableBucket, Long> recover(TableInfo tableInfo, FileStoreTable lakeTable) throws Exception {
        if (tableInfo.isPartitioned()) {
            throw cannotRecover(tableInfo, "recovering the offsets of a partitioned table is not supported");
        }
        SnapshotManager snapshots = lakeTable.snapshotManager();
        Long latest = snapshots.latestSnapshotId();
        Long earliest = snapshots.earliestSnapshotId();
        if (latest == null) {
            return Map.of();
        }
        long after = ownSnapshotsStartAfter(tableInfo, snapshots, latest, earliest);
        if (after >= latest) {
            return Map.of();
        }
        List<String> names = lakeTable.rowType().getFieldNames();
        FileStoreTable changes =
                lakeTable.copy(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", String.valueOf(after + 1)));
        ReadBuilder builder = changes.newReadBuilder()
                .withProjection(new int[] {names.indexOf(BUCKET_COLUMN), names.indexOf(OFFSET_COLUMN)});
        StreamTableScan scan = builder.newStreamScan();
        List<Split> splits = new ArrayList<>();
        while (true) {
            splits.addAll(scan.plan().splits());
            Long next = scan.checkpoint();
            if (next == null || next > latest) {
                break;
            }
        }
        Map<TableBucket, Long> offsets = new HashMap<>();
        try (RecordReader<org.apache.paimon.data.InternalRow> reader = builder.newRead().createReader(splits)) {
            reader.forEachRemaining(row -> offsets.merge(
                    new TableBucket(tableInfo.getTableId(), row.getInt(0)), row.getLong(1) + 1, Math::max));
        }
        offsets.values().removeIf(offset -> offset <= 0);
        return offsets;
    }

    /** The id of the newest snapshot before this table's own ones began (0: the table's first snapshot). */
    private static long ownSnapshotsStartAfter(TableInfo tableInfo, SnapshotManager snapshots, long latest, Long earliest)
            throws Exception {
        long stop = earliest == null ? 1 : earliest;
        for (long id = latest; id >= stop; id--) {
            Snapshot snapshot;
            try {
                snapshot = snapshots.tryGetSnapshot(id);
            } catch (FileNotFoundException expired) {
                stop = id + 1;
                break;
            }
            Optional<TieringSnapshot> tiering = TieringSnapshot.of(snapshot);
            if (tiering.isPresent() && !tiering.get().belongsTo(tableInfo.getTablePath(), tableInfo.getTableId())) {
                return id;
            }
        }
        if (stop > 1) {
            throw cannotRecover(tableInfo, "Paimon snapshots before " + stop + " have expired, so rows of another "
                    + "table may precede this table's own");
        }
        return 0;
    }

    private static LakeTableIncompatibleException cannotRecover(TableInfo tableInfo, String why) {
        return new LakeTableIncompatibleException(
                "The coordinator's checkpoint of " + tableInfo.getTablePath() + " cannot be read and lakesync cannot "
                        + "rebuild it from the lake: " + why + ". Disable the table, delete its lake table "
                        + "('lakesync tables delete-retained') and enable it again to tier it afresh.");
    }
}
