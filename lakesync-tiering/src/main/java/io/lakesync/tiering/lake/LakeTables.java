package io.lakesync.tiering.lake;

import io.lakesync.config.LakeCatalogCheck;
import java.util.HashMap;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.CatalogOptions;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;

/**
 * The Paimon catalog that holds the lake tables, opened once per service from the lake catalog options.
 *
 * <p>Paimon's catalog cache is turned off: a cached table keeps the schema it was loaded with, so a column
 * Fluss added since would look like a lake table changed behind Fluss's back, and rows would be written in
 * the old layout; and its snapshot cache, keyed by file path, would show a deleted and re-created lake table
 * the snapshots of the deleted one. Every load reads schema and snapshots as they are now.
 */
public final class LakeTables implements AutoCloseable {

    private final Catalog catalog;
    private final CommitSafety commitSafety;

    /**
     * Opens the catalog; options that cannot work (a JDBC catalog without a driver or a database) fail first with
     * the config key to fix ({@link LakeCatalogCheck}). A filesystem catalog on an object store without a lock gets
     * lakesync's {@link InProcessCommitLock}, so this process's own committers never collide.
     */
    public LakeTables(Map<String, String> catalogOptions) {
        LakeCatalogCheck.check(catalogOptions);
        Map<String, String> options = new HashMap<>(catalogOptions);
        options.put(CatalogOptions.CACHE_ENABLED.key(), "false");
        Catalog opened = open(options);
        this.commitSafety = CommitSafety.of(opened);
        if (commitSafety == CommitSafety.IN_PROCESS_LOCK_ONLY) {
            closeQuietly(opened);
            options.put(CatalogOptions.LOCK_ENABLED.key(), "true");
            options.put(CatalogOptions.LOCK_TYPE.key(), InProcessCommitLock.IDENTIFIER);
            opened = open(options);
        }
        this.catalog = opened;
    }

    /** What keeps this catalog's commits from colliding, and so how many instances may write through it. */
    public CommitSafety commitSafety() {
        return commitSafety;
    }

    private static Catalog open(Map<String, String> options) {
        return CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(options)));
    }

    private static void closeQuietly(Catalog catalog) {
        try {
            catalog.close();
        } catch (Exception ignored) {
            // Only opened to learn its file system and lock; nothing was written through it.
        }
    }

    /** The lake table of a Fluss table, as it is now (schema and snapshots freshly read). */
    public FileStoreTable load(TablePath tablePath)
            throws Catalog.TableNotExistException, LakeTableIncompatibleException {
        Table table = catalog.getTable(Identifier.create(tablePath.getDatabaseName(), tablePath.getTableName()));
        if (!(table instanceof FileStoreTable)) {
            throw new LakeTableIncompatibleException(
                    "Lake table " + tablePath + " is a " + table.getClass().getSimpleName()
                            + ", not a Paimon file store table, so lakesync cannot tier into it. Drop it in Paimon "
                            + "(Fluss re-creates it when the table is disabled and re-enabled for the lake).");
        }
        return (FileStoreTable) table;
    }

    public Catalog catalog() {
        return catalog;
    }

    @Override
    public void close() throws Exception {
        catalog.close();
    }
}
