package io.lakesync.tiering.round;

import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.RegisteredSnapshot;
import io.lakesync.fluss.tiering.TieringCoordinator;
import io.lakesync.tiering.lake.TieringSnapshot;
import io.lakesync.tiering.retained.CheckpointRepair;
import io.lakesync.tiering.retained.RetainedLakeDataException;
import io.lakesync.tiering.retained.SnapshotRegistration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.table.FileStoreTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first step of a round: makes the coordinator's checkpoint of the table agree with the lake, and returns it.
 *
 * <pre>
 *  coordinator entry     Paimon's newest tiering snapshot         what happens
 *  ──────────────────    ──────────────────────────────────       ──────────────────────────────────────────
 *  readable, id k        none, or id ≤ k                          nothing: plan from k
 *  readable or none      id > k, tiered from this table           register it (a crash between the commits)
 *  readable, id k        id > k, from another (dropped) table     never registered; plan from k
 *  none                  from another (dropped) table             BLOCKED: adopt, or delete-retained
 *  readable, id k        snapshot k is another table's            BLOCKED: registered by mistake earlier
 *  unreadable            any                                      repaired by {@link CheckpointRepair}; the
 *                                                                 round fails once, saying so, and retries
 * </pre>
 *
 * <p>A snapshot belongs to this table when its offsets file lies in the coordinator's folder of this table id.
 */
public final class LakeSnapshotReconciler {

    private static final Logger LOG = LoggerFactory.getLogger(LakeSnapshotReconciler.class);

    private final FlussClient fluss;
    private final TieringCoordinator coordinator;

    public LakeSnapshotReconciler(FlussClient fluss, TieringCoordinator coordinator) {
        this.fluss = fluss;
        this.coordinator = coordinator;
    }

    /**
     * @param lakeLatest Paimon's newest tiering snapshot, read at the round's start (its base for fencing)
     * @param registeredRequest the coordinator's latest lake snapshot of the table, asked for at the round's start
     * @return the coordinator's checkpoint of the table after reconciling, or null when it has none
     */
    @Nullable
    public LakeSnapshot reconcile(
            TableInfo table,
            FileStoreTable lakeTable,
            Optional<TieringSnapshot> lakeLatest,
            CompletableFuture<LakeSnapshot> registeredRequest)
            throws Exception {
        TablePath path = table.getTablePath();
        long tableId = table.getTableId();
        CheckpointRepair repair = new CheckpointRepair(fluss, coordinator);
        RegisteredSnapshot registered = RegisteredSnapshot.of(registeredRequest);
        if (registered.unreadable()) {
            throw repair.repair(table, lakeTable, lakeLatest, registered.unreadableReason());
        }
        LakeSnapshot known = registered.snapshot();
        if (known != null) {
            Optional<TieringSnapshot> registeredInLake = CheckpointRepair.tieringSnapshot(lakeTable, known.getSnapshotId());
            if (registeredInLake.isPresent() && !registeredInLake.get().belongsTo(path, tableId)) {
                throw RetainedLakeDataException.of(table, lakeTable, registeredInLake.get(),
                        " The snapshot registered for it (" + known.getSnapshotId() + ") is the dropped table's.");
            }
        }
        if (lakeLatest.isEmpty() || (known != null && lakeLatest.get().snapshotId() <= known.getSnapshotId())) {
            return known;
        }
        TieringSnapshot missing = lakeLatest.get();
        if (!missing.belongsTo(path, tableId)) {
            if (known == null) {
                throw RetainedLakeDataException.of(table, lakeTable, missing, "");
            }
            LOG.warn("Table {}: Paimon snapshot {} was tiered from another table ({}); not registering it",
                    path, missing.snapshotId(), missing.offsetsPath());
            return known;
        }
        LOG.info("Table {}: Paimon snapshot {} is not registered with the coordinator (known: {}); registering it",
                path, missing.snapshotId(), known == null ? "none" : known.getSnapshotId());
        SnapshotRegistration.registerAgain(fluss, coordinator, table, lakeTable, missing);
        registered = RegisteredSnapshot.read(fluss, path);
        if (registered.unreadable()) {
            throw repair.repair(table, lakeTable, lakeLatest, registered.unreadableReason());
        }
        return registered.snapshot();
    }
}
