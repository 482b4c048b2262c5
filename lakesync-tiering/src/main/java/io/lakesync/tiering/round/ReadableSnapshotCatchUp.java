package io.lakesync.tiering.round;

import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.tiering.LakeSnapshotCommit;
import io.lakesync.fluss.tiering.TieringCoordinator;
import io.lakesync.tiering.lake.LakeReadability;
import io.lakesync.tiering.lake.LakeSnapshotCommitter;
import io.lakesync.tiering.lake.TieringSnapshot;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.metadata.TableInfo;
import org.apache.paimon.table.FileStoreTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a deletion-vector table's readable lake snapshot up to its tiered one when a round left them apart (its
 * compaction lost a conflict, so the snapshot it registered still had level-0 files; see
 * {@link LakeReadability}) and the lake has since been compacted (lake maintenance compacts level 0 first).
 *
 * <pre>
 *  readable id ≥ tiered id                                   nothing to do
 *  a tiering snapshot landed after the tiered one            nothing: the round that landed it registers it
 *  newest Paimon snapshot S (compaction only since the
 *  tiered one) still has level-0 files                       nothing yet: the next compaction may free it
 *  S has no level-0 file                                     register S, tiered and readable, at the tiered
 *                                                            offsets (a new offsets file: Fluss deletes the
 *                                                            files of entries it drops)
 * </pre>
 *
 * <p>Exact because only tiering adds rows to the table: snapshots after the tiered one that are not tiering
 * snapshots are compactions, so S holds exactly the tiered rows. Runs in the round, which owns the table, so it
 * never races a registration of the same table.
 */
final class ReadableSnapshotCatchUp {

    private static final Logger LOG = LoggerFactory.getLogger(ReadableSnapshotCatchUp.class);

    private final FlussClient fluss;
    private final TieringCoordinator coordinator;

    ReadableSnapshotCatchUp(FlussClient fluss, TieringCoordinator coordinator) {
        this.fluss = fluss;
        this.coordinator = coordinator;
    }

    /**
     * @param tiered the coordinator's latest lake snapshot, after reconciling
     * @param lakeTiering Paimon's newest tiering snapshot
     * @return the coordinator's latest lake snapshot afterwards
     */
    LakeSnapshot catchUp(
            TableInfo table,
            FileStoreTable lakeTable,
            LakeSnapshotCommitter committer,
            LakeSnapshot tiered,
            Optional<TieringSnapshot> lakeTiering)
            throws Exception {
        long tieredId = tiered.getSnapshotId();
        if (readableId(table) >= tieredId
                || lakeTiering.map(snapshot -> snapshot.snapshotId() > tieredId).orElse(false)) {
            return tiered;
        }
        long newest = committer.latestSnapshotId();
        if (newest <= tieredId || !LakeReadability.readable(lakeTable, newest)) {
            return tiered;
        }
        String offsetsPath = coordinator.prepareLakeSnapshot(
                table.getTableId(), table.getTablePath(), tiered.getTableBucketsOffset());
        coordinator.commitLakeSnapshot(
                new LakeSnapshotCommit(table.getTableId(), newest, offsetsPath, Map.of(), Map.of(), true));
        LOG.info("Table {}: compacted Paimon snapshot {} registered as readable at the offsets of lake snapshot {}",
                table.getTablePath(), newest, tieredId);
        return fluss.latestLakeSnapshot(table.getTablePath()).get();
    }

    private long readableId(TableInfo table) throws Exception {
        try {
            return fluss.readableLakeSnapshot(table.getTablePath()).get().getSnapshotId();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LakeTableSnapshotNotExistException) {
                return -1;
            }
            throw e;
        }
    }
}
