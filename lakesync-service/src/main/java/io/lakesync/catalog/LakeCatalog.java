package io.lakesync.catalog;

import io.lakesync.fluss.FlussClient;
import io.lakesync.tiering.lake.LakeTables;
import io.lakesync.tiering.retained.AdoptionRefusedException;
import io.lakesync.tiering.retained.LakeTableAdoption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;

/**
 * The lake side of table management: whether a same-name Paimon table would conflict with enabling a Fluss
 * table, and the lake tables that outlived their Fluss table (dropping a Fluss table keeps its lake table;
 * lakesync lists those, and deletes one, or lets a re-created table of the same name adopt it, only when asked to).
 */
public final class LakeCatalog {

    private static final List<String> SYSTEM_COLUMNS = List.of("__bucket", "__offset", "__timestamp");

    private final FlussClient fluss;
    private final LakeTables lakeTables;
    private final LakeTableAdoption adoption;

    public LakeCatalog(FlussClient fluss, LakeTables lakeTables) {
        this.fluss = fluss;
        this.lakeTables = lakeTables;
        this.adoption = new LakeTableAdoption(fluss, fluss.tieringCoordinator(), lakeTables);
    }

    /**
     * Refuses to enable {@code path} when the lake already holds a non-empty table of that name that the
     * Fluss table never tiered into (its own lake table from an earlier enable is fine: sync resumes).
     */
    public void checkNoConflict(TablePath path) throws Exception {
        Optional<FileStoreTable> existing = lakeTable(path);
        if (existing.isEmpty()) {
            return;
        }
        Snapshot latest = existing.get().snapshotManager().latestSnapshot();
        if (latest == null || hasLakeSnapshot(path)) {
            return;
        }
        throw new LakeTableConflictException(
                "The lake catalog already has a table " + path + " with data (snapshot " + latest.id()
                        + ") that was not synced from this Fluss table. If a dropped table of that name left it, "
                        + "'lakesync tables adopt " + path + "' continues syncing into it, or 'lakesync tables "
                        + "delete-retained " + path + "' deletes it; otherwise rename or drop that Paimon table, or "
                        + "the Fluss table, before enabling lake sync.");
    }

    /** Lake tables written by Fluss tiering whose Fluss table no longer exists. */
    public List<LakeTableInfo> retainedTables() throws Exception {
        Catalog catalog = lakeTables.catalog();
        List<LakeTableInfo> retained = new ArrayList<>();
        for (String database : catalog.listDatabases()) {
            for (String name : catalog.listTables(database)) {
                TablePath path = TablePath.of(database, name);
                Optional<FileStoreTable> table = lakeTable(path);
                if (table.isPresent() && isTieredLayout(table.get()) && !fluss.tableExists(path).get()) {
                    Long snapshots = table.get().snapshotManager().snapshotCount();
                    retained.add(new LakeTableInfo(database, name, snapshots == null ? 0 : snapshots));
                }
            }
        }
        return retained;
    }

    /**
     * Deletes a retained lake table; refuses while a Fluss table of that name syncs into it. A re-created Fluss
     * table with lake sync off is fine: enabling it afterwards starts a fresh lake table.
     */
    public void deleteRetained(TablePath path) throws Exception {
        if (fluss.tableExists(path).get() && fluss.tableInfo(path).get().getTableConfig().isDataLakeEnabled()) {
            throw new LakeTableConflictException(
                    "Fluss table " + path + " has lake sync enabled; its lake table is deleted only after the Fluss "
                            + "table is dropped or its lake sync disabled ('lakesync tables disable " + path + "').");
        }
        Optional<FileStoreTable> table = lakeTable(path);
        if (table.isEmpty() || !isTieredLayout(table.get())) {
            throw new LakeTableConflictException("There is no retained lake table " + path + ".");
        }
        lakeTables.catalog().dropTable(Identifier.create(path.getDatabaseName(), path.getTableName()), false);
    }

    /**
     * Lets the re-created Fluss table {@code path} continue syncing into the lake table a dropped table of that
     * name left; a primary-key table only with {@code keepOldKeys} (rows of the old keys stay).
     */
    public LakeTableAdoption.Adopted adopt(TablePath path, boolean keepOldKeys) throws Exception {
        try {
            return adoption.adopt(path, keepOldKeys);
        } catch (AdoptionRefusedException e) {
            throw new LakeTableConflictException(e.getMessage());
        }
    }

    private Optional<FileStoreTable> lakeTable(TablePath path) throws Exception {
        try {
            Table table = lakeTables.catalog().getTable(Identifier.create(path.getDatabaseName(), path.getTableName()));
            return table instanceof FileStoreTable fileStore ? Optional.of(fileStore) : Optional.empty();
        } catch (Catalog.TableNotExistException e) {
            return Optional.empty();
        }
    }

    private boolean hasLakeSnapshot(TablePath path) throws Exception {
        try {
            LakeSnapshot snapshot = fluss.latestLakeSnapshot(path).get();
            return snapshot != null;
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof LakeTableSnapshotNotExistException) {
                return false;
            }
            throw e;
        }
    }

    private static boolean isTieredLayout(FileStoreTable table) {
        List<String> names = table.rowType().getFieldNames();
        return names.size() >= 3 && names.subList(names.size() - 3, names.size()).equals(SYSTEM_COLUMNS);
    }
}
