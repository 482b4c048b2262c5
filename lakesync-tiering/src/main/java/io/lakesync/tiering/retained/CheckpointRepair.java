package io.lakesync.tiering.retained;

import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.RegisteredSnapshot;
import io.lakesync.fluss.tiering.TieringCoordinator;
import io.lakesync.tiering.lake.TieringSnapshot;
import java.io.FileNotFoundException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.Snapshot;
import org.apache.paimon.table.FileStoreTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repairs a coordinator checkpoint that cannot be read (its offsets file is gone: left by an older lakesync or by
 * Fluss's own job after a table was dropped and re-created), where the protocol allows it:
 *
 * <pre>
 *  Paimon's newest tiering snapshot      repair
 *  ────────────────────────────────      ─────────────────────────────────────────────────────────────────
 *  none (lake table new or emptied)      fresh checkpoint without offsets: the table is tiered from its start
 *  another (dropped) table's             none: BLOCKED until adopted or deleted ({@link RetainedLakeDataException})
 *  this table's, offsets file readable   registered again
 *  this table's, offsets file gone       fresh checkpoint at the offsets the lake's rows prove ({@link LakeOffsetsRecovery})
 * </pre>
 */
public final class CheckpointRepair {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointRepair.class);

    private final FlussClient fluss;
    private final TieringCoordinator coordinator;

    public CheckpointRepair(FlussClient fluss, TieringCoordinator coordinator) {
        this.fluss = fluss;
        this.coordinator = coordinator;
    }

    /** Repairs the checkpoint and returns the exception that ends the round, saying what was done. */
    public CheckpointRepairedException repair(
            TableInfo table, FileStoreTable lakeTable, Optional<TieringSnapshot> lakeLatest, String unreadableReason)
            throws Exception {
        TablePath path = table.getTablePath();
        long tableId = table.getTableId();
        String found = "The coordinator's lake snapshot of " + path + " could not be read (" + unreadableReason + ").";
        if (lakeLatest.isPresent() && !lakeLatest.get().belongsTo(path, tableId)) {
            throw RetainedLakeDataException.of(table, lakeTable, lakeLatest.get(), " " + found);
        }
        // Debug only: the round's failure reports the outcome (repaired, or blocked when it cannot be), once.
        LOG.debug("{} Repairing it.", found);
        String done;
        if (lakeLatest.isEmpty()) {
            long snapshotId = new FreshCheckpoint(coordinator).commit(tableId, path, lakeTable, Map.of());
            done = "the lake holds no tiering snapshot, so a fresh checkpoint (Paimon snapshot " + snapshotId
                    + ") now starts the table from the beginning.";
        } else {
            TieringSnapshot own = lakeLatest.get();
            SnapshotRegistration.registerAgain(fluss, coordinator, table, lakeTable, own);
            if (RegisteredSnapshot.read(fluss, path).snapshot() != null) {
                done = "registered the lake's own checkpoint (Paimon snapshot " + own.snapshotId() + ") again.";
            } else {
                Map<TableBucket, Long> offsets = LakeOffsetsRecovery.recover(table, lakeTable);
                long snapshotId = new FreshCheckpoint(coordinator).commit(tableId, path, lakeTable, offsets);
                done = "rebuilt it from the rows in the lake: Paimon snapshot " + snapshotId + " at offsets "
                        + bucketOffsets(offsets) + ".";
            }
        }
        return new CheckpointRepairedException(found + " lakesync " + done + " The next round continues from it.");
    }

    /** The Paimon snapshot {@code id} if Fluss tiering wrote it and it is still there. */
    public static Optional<TieringSnapshot> tieringSnapshot(FileStoreTable lakeTable, long id) throws Exception {
        Snapshot snapshot;
        try {
            snapshot = lakeTable.snapshotManager().tryGetSnapshot(id);
        } catch (FileNotFoundException expired) {
            return Optional.empty();
        }
        return TieringSnapshot.of(snapshot);
    }

    private static String bucketOffsets(Map<TableBucket, Long> offsets) {
        Map<Integer, Long> byBucket = new TreeMap<>();
        offsets.forEach((bucket, offset) -> byBucket.put(bucket.getBucket(), offset));
        return byBucket.toString();
    }
}
