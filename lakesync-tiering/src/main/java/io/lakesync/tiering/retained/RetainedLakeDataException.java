package io.lakesync.tiering.retained;

import io.lakesync.tiering.lake.LakeTableIncompatibleException;
import io.lakesync.tiering.lake.TieringSnapshot;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.Snapshot;
import org.apache.paimon.table.FileStoreTable;

/**
 * The lake table holds data tiered from a dropped Fluss table of the same name, and the coordinator has no
 * checkpoint of the current table in it. Syncing on would either register the dropped table's offsets for the
 * new table (skipping its rows) or mix the two silently, so the table is blocked until someone chooses: adopt the
 * retained lake table, or delete it and start afresh.
 */
public class RetainedLakeDataException extends LakeTableIncompatibleException {

    public RetainedLakeDataException(String message) {
        super(message);
    }

    /**
     * The blocked reason for {@code table}, naming the retained lake table, its rows and the choices.
     *
     * @param coordinatorNote empty, or a sentence (with a leading space) on what the coordinator holds
     */
    public static RetainedLakeDataException of(
            TableInfo table, FileStoreTable lakeTable, TieringSnapshot foreign, String coordinatorNote) {
        TablePath tablePath = table.getTablePath();
        long tableId = table.getTableId();
        boolean primaryKey = table.hasPrimaryKey();
        Snapshot latest = lakeTable.snapshotManager().latestSnapshot();
        Long rows = latest == null ? null : latest.totalRecordCount();
        String droppedId = foreign.tableId().isPresent() ? "id " + foreign.tableId().getAsLong() : "unknown id";
        return new RetainedLakeDataException(
                "Lake table " + tablePath + " holds " + (rows == null ? "an unknown number of" : rows)
                        + " rows tiered from a dropped Fluss table of the same name (" + droppedId
                        + ", Paimon snapshot " + foreign.snapshotId() + "); the coordinator has no checkpoint of the "
                        + "current table (id " + tableId + ") to continue from." + coordinatorNote + " Choose: 'lakesync tables "
                        + "adopt " + tablePath + (primaryKey ? " --keep-old-keys" : "") + "' to keep those rows and add "
                        + "this table's rows to them" + (primaryKey ? " (rows of old keys stay in the lake)" : "")
                        + ", or 'lakesync tables disable', 'delete-retained' and 'enable' " + tablePath
                        + " to start the lake table afresh.");
    }
}
