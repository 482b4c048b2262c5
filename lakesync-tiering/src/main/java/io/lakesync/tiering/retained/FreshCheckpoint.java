package io.lakesync.tiering.retained;

import io.lakesync.fluss.tiering.LakeSnapshotCommit;
import io.lakesync.fluss.tiering.TieringCoordinator;
import io.lakesync.tiering.lake.LakeReadability;
import io.lakesync.tiering.lake.LakeSnapshotCommitter;
import java.util.Map;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.Snapshot;
import org.apache.paimon.manifest.ManifestCommittable;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.TableCommitImpl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a table's tiering checkpoint over, at offsets known to be true, without reading the coordinator's
 * previous entry (it may be unreadable or belong to a dropped table): the coordinator writes an offsets file
 * holding exactly those offsets, an empty Paimon snapshot records it as a tiering snapshot of this table, and
 * the coordinator registers that snapshot.
 *
 * <p>Each step leaves a state the next round settles: a Paimon snapshot the coordinator did not register is
 * this table's own, so the round registers it as after any crash between the two commits.
 */
public final class FreshCheckpoint {

    private static final Logger LOG = LoggerFactory.getLogger(FreshCheckpoint.class);

    private final TieringCoordinator coordinator;

    public FreshCheckpoint(TieringCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    /**
     * @param offsets exclusive end offsets the lake holds per bucket of this table; buckets left out count as
     *     never tiered (a log bucket is then read from its start, a primary-key bucket from its KV snapshot)
     * @return the Paimon snapshot id now registered
     */
    public long commit(long tableId, TablePath tablePath, FileStoreTable lakeTable, Map<TableBucket, Long> offsets)
            throws Exception {
        String offsetsPath = coordinator.prepareFreshLakeSnapshot(tableId, tablePath, offsets);
        ManifestCommittable committable = new ManifestCommittable(BatchWriteBuilder.COMMIT_IDENTIFIER);
        committable.addProperty(LakeSnapshotCommitter.OFFSETS_PROPERTY, offsetsPath);
        // Write-only: an empty checkpoint commit must not expire snapshots the table's own setting keeps.
        FileStoreTable writeOnly = lakeTable.copy(Map.of(CoreOptions.WRITE_ONLY.key(), "true"));
        try (TableCommitImpl commit = writeOnly.newCommit(LakeSnapshotCommitter.COMMIT_USER).ignoreEmptyCommit(false)) {
            commit.commit(committable);
        }
        Snapshot latest = lakeTable.snapshotManager().latestSnapshot();
        if (latest == null || !offsetsPath.equals(latest.properties() == null
                ? null : latest.properties().get(LakeSnapshotCommitter.OFFSETS_PROPERTY))) {
            throw new IllegalStateException(
                    "The checkpoint snapshot of " + tablePath + " is not the newest Paimon snapshot; "
                            + "another writer committed meanwhile. The next round settles it.");
        }
        coordinator.commitLakeSnapshot(new LakeSnapshotCommit(tableId, latest.id(), offsetsPath, offsets, Map.of(),
                LakeReadability.readable(lakeTable, latest.id())));
        LOG.debug("Table {} (id {}): new tiering checkpoint at Paimon snapshot {} with {} bucket offsets",
                tablePath, tableId, latest.id(), offsets.size());
        return latest.id();
    }
}
