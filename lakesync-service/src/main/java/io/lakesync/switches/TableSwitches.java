package io.lakesync.switches;

import io.lakesync.catalog.LakeCatalog;
import io.lakesync.fluss.FlussClient;
import io.lakesync.state.StateStore;
import io.lakesync.tiering.lake.LakeTableCheck;
import io.lakesync.tiering.retained.LakeTableAdoption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-table lake sync on and off. Underneath it is exactly {@code ALTER TABLE ... SET
 * ('table.datalake.enabled' = ...)} on Fluss, so SQL users and lakesync see the same state; lakesync adds
 * the checks Fluss does not make, and an audit entry naming who flipped it.
 */
public final class TableSwitches {

    static final String ENABLED = "table.datalake.enabled";
    private static final Logger LOG = LoggerFactory.getLogger(TableSwitches.class);

    private final FlussClient fluss;
    private final LakeCatalog lake;
    private final BooleanSupplier serviceEnabled;
    private final StateStore state;

    public TableSwitches(FlussClient fluss, LakeCatalog lake, BooleanSupplier serviceEnabled, StateStore state) {
        this.fluss = fluss;
        this.lake = lake;
        this.serviceEnabled = serviceEnabled;
        this.state = state;
    }

    public void enable(TablePath path, String actor) throws Exception {
        TableInfo table = tableInfo(path);
        if (!serviceEnabled.getAsBoolean()) {
            throw new SwitchRefusedException(
                    "The lakesync service is switched off for this cluster; turn it on first ('lakesync service enable').");
        }
        String deletionVectorsUnsupported = LakeTableCheck.deletionVectorsUnsupported(table);
        if (deletionVectorsUnsupported != null) {
            throw new SwitchRefusedException(deletionVectorsUnsupported);
        }
        try {
            lake.checkNoConflict(path);
        } catch (io.lakesync.catalog.LakeTableConflictException e) {
            throw new SwitchRefusedException(e.getMessage());
        }
        set(path, true, actor);
    }

    /**
     * Lets a re-created table continue syncing into the lake table its dropped namesake left (the table is
     * blocked until then); see {@link LakeCatalog#adopt}.
     */
    public LakeTableAdoption.Adopted adopt(TablePath path, boolean keepOldKeys, String actor) throws Exception {
        if (!path.isValid()) {
            throw new SwitchRefusedException("'" + path + "' is not a valid Fluss table name.");
        }
        LakeTableAdoption.Adopted adopted;
        try {
            adopted = lake.adopt(path, keepOldKeys);
        } catch (io.lakesync.catalog.LakeTableConflictException e) {
            throw new SwitchRefusedException(e.getMessage());
        }
        state.write(sql -> {
            sql.audit(actor, "table.adopt", path.toString(), "lake snapshot " + adopted.lakeSnapshotId() + ", "
                    + adopted.retainedRows() + " retained rows" + (keepOldKeys ? ", old keys kept" : ""));
            return null;
        });
        LOG.info("{} adopted the retained lake table of {} ({} rows) for table id {}: checkpoint at lake snapshot {}",
                actor, path, adopted.retainedRows(), adopted.tableId(), adopted.lakeSnapshotId());
        return adopted;
    }

    public void disable(TablePath path, String actor) throws Exception {
        tableInfo(path);
        set(path, false, actor);
    }

    /** Lake-enabled tables, for the service switch's refusal. */
    public List<TablePath> enabledTables() throws Exception {
        List<TablePath> enabled = new ArrayList<>();
        for (TablePath path : fluss.allTables().get()) {
            if (fluss.tableInfo(path).get().getTableConfig().isDataLakeEnabled()) {
                enabled.add(path);
            }
        }
        return enabled;
    }

    private void set(TablePath path, boolean on, String actor) throws Exception {
        fluss.alterTable(path, List.of(TableChange.set(ENABLED, String.valueOf(on)))).get();
        state.write(sql -> {
            sql.audit(actor, on ? "table.enable" : "table.disable", path.toString(), ENABLED + " = " + on);
            return null;
        });
        LOG.info("{} lake sync of table {}", on ? "Enabled" : "Disabled", path);
    }

    private TableInfo tableInfo(TablePath path) throws Exception {
        if (!fluss.tableExists(path).get()) {
            throw new SwitchRefusedException("There is no Fluss table " + path + ".");
        }
        return fluss.tableInfo(path).get();
    }
}
