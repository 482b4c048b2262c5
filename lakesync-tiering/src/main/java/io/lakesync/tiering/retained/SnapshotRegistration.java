package io.lakesync.tiering.retained;

import io.lakesync.errors.ErrorMessages;
import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.RegisteredSnapshot;
import io.lakesync.fluss.tiering.LakeSnapshotCommit;
import io.lakesync.fluss.tiering.OffsetsFiles;
import io.lakesync.fluss.tiering.TieringCoordinator;
import io.lakesync.tiering.lake.LakeReadability;
import io.lakesync.tiering.lake.TieringSnapshot;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.paimon.table.FileStoreTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers with the coordinator a lake snapshot that is already in the lake (a round that crashed between its two
 * commits, a checkpoint being repaired), under a fresh copy of its offsets file.
 *
 * <p>Why a copy: Fluss 0.9.1's coordinator deletes the offsets files of the entries a registration replaces, and
 * it does not look whether the new entry names the same file. Registering a snapshot the coordinator already holds
 * (two rounds around a coordinator restart, or two instances around a hand-over, that both saw it missing) would
 * delete the very file the coordinator then points at, and the table's checkpoint could not be read again. The
 * copy is the offsets the coordinator prepares afresh from the file's content. The first such registration
 * replaces the entry that named the snapshot's own file, so a later one finds that file gone and the snapshot
 * already held. When this process cannot read the file (no access to Fluss's remote storage), the snapshot is
 * registered under its own file.
 */
public final class SnapshotRegistration {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotRegistration.class);

    private SnapshotRegistration() {}

    /**
     * Registers {@code snapshot} of {@code table}, readable if the lake shows all its rows, unless its offsets file
     * is gone while the coordinator already holds the snapshot (or a newer one) readably: another registration of
     * it won, and its file went with the entry that registration replaced.
     */
    public static void registerAgain(FlussClient fluss, TieringCoordinator coordinator, TableInfo table,
            FileStoreTable lakeTable, TieringSnapshot snapshot) throws Exception {
        String offsetsPath = snapshot.offsetsPath();
        Optional<Map<TableBucket, Long>> offsets;
        try {
            offsets = OffsetsFiles.read(offsetsPath);
        } catch (Exception unreadable) {
            LOG.debug("Cannot read the offsets file {} of {} ({}); registering it under that file",
                    offsetsPath, table.getTablePath(), ErrorMessages.rootMessage(unreadable));
            offsets = null;
        }
        if (offsets != null && offsets.isPresent()) {
            offsetsPath = coordinator.prepareFreshLakeSnapshot(table.getTableId(), table.getTablePath(), offsets.get());
        } else if (offsets != null && alreadyHeld(fluss, table, snapshot)) {
            LOG.info("Table {}: Paimon snapshot {} is registered with the coordinator meanwhile",
                    table.getTablePath(), snapshot.snapshotId());
            return;
        }
        coordinator.commitLakeSnapshot(new LakeSnapshotCommit(table.getTableId(), snapshot.snapshotId(), offsetsPath,
                Map.of(), Map.of(), LakeReadability.readable(lakeTable, snapshot.snapshotId())));
    }

    private static boolean alreadyHeld(FlussClient fluss, TableInfo table, TieringSnapshot snapshot) throws Exception {
        RegisteredSnapshot now = RegisteredSnapshot.read(fluss, table.getTablePath());
        return !now.unreadable() && now.snapshot() != null && now.snapshot().getSnapshotId() >= snapshot.snapshotId();
    }
}
