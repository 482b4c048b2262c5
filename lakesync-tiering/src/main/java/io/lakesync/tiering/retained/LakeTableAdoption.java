package io.lakesync.tiering.retained;

import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.tiering.TieringCoordinator;
import io.lakesync.tiering.lake.LakeSnapshotCommitter;
import io.lakesync.tiering.lake.LakeTables;
import io.lakesync.tiering.lake.TieringSnapshot;
import java.util.Map;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.table.FileStoreTable;

/**
 * Lets a re-created Fluss table continue syncing into the lake table its dropped namesake left behind: a fresh
 * checkpoint of the new table id without bucket offsets ({@link FreshCheckpoint}), so the next round tiers the
 * new table from its start (a log table from its first offset, a primary-key table from its KV snapshot) next to
 * the retained rows, each row once. For a primary-key table rows of keys the new table never writes stay in the
 * lake, so it is done only when asked for explicitly.
 */
public final class LakeTableAdoption {

    /** What was adopted: the table, its id, the checkpoint's Paimon snapshot and the rows kept. */
    public record Adopted(String table, long tableId, long lakeSnapshotId, @Nullable Long retainedRows) {}

    private final FlussClient fluss;
    private final TieringCoordinator coordinator;
    private final LakeTables lakeTables;

    public LakeTableAdoption(FlussClient fluss, TieringCoordinator coordinator, LakeTables lakeTables) {
        this.fluss = fluss;
        this.coordinator = coordinator;
        this.lakeTables = lakeTables;
    }

    public Adopted adopt(TablePath path, boolean keepOldKeys) throws Exception {
        if (!fluss.tableExists(path).get()) {
            throw new AdoptionRefusedException("There is no Fluss table " + path + ".");
        }
        TableInfo table = fluss.tableInfo(path).get();
        FileStoreTable lakeTable;
        try {
            lakeTable = lakeTables.load(path);
        } catch (Catalog.TableNotExistException e) {
            throw new AdoptionRefusedException("There is no lake table " + path + " to adopt.");
        }
        Optional<TieringSnapshot> latest = new LakeSnapshotCommitter(lakeTable, false).latestTieringSnapshot();
        if (latest.isEmpty() || latest.get().belongsTo(path, table.getTableId())) {
            throw new AdoptionRefusedException(
                    "Table " + path + " does not need adopting: its lake table holds no data of a dropped table"
                            + latest.map(s -> " (its newest tiering snapshot " + s.snapshotId() + " is its own)").orElse("")
                            + ".");
        }
        if (table.hasPrimaryKey() && !keepOldKeys) {
            throw new AdoptionRefusedException(
                    "Table " + path + " has a primary key: after adopting, rows of keys the dropped table wrote and this "
                            + "table never writes stay in the lake. Pass --keep-old-keys (API: keepOldKeys=true) to adopt "
                            + "anyway, or disable the table, delete-retained and enable it to start afresh.");
        }
        Snapshot before = lakeTable.snapshotManager().latestSnapshot();
        Long retainedRows = before == null ? null : before.totalRecordCount();
        long snapshotId = new FreshCheckpoint(coordinator).commit(table.getTableId(), path, lakeTable, Map.of());
        return new Adopted(path.toString(), table.getTableId(), snapshotId, retainedRows);
    }
}
