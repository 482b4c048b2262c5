package io.lakesync.tiering.lake;

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

/** The Paimon catalog that holds the lake tables, opened once per service from the lake catalog options. */
public final class LakeTables implements AutoCloseable {

    private final Catalog catalog;

    public LakeTables(Map<String, String> catalogOptions) {
        Options options = Options.fromMap(catalogOptions);
        // Paimon caches snapshots by file path: a lake table deleted and re-created elsewhere would show the
        // snapshots of the deleted one.
        options.set(CatalogOptions.CACHE_SNAPSHOT_MAX_NUM_PER_TABLE, 0);
        this.catalog = CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    /** The lake table of a Fluss table, as it is now (schema and snapshots freshly read). */
    public FileStoreTable load(TablePath tablePath) throws Catalog.TableNotExistException {
        Table table = catalog.getTable(Identifier.create(tablePath.getDatabaseName(), tablePath.getTableName()));
        if (!(table instanceof FileStoreTable)) {
            throw new IllegalStateException(
                    "Lake table " + tablePath + " is a " + table.getClass().getSimpleName()
                            + ", not a Paimon file store table; lakesync cannot tier into it.");
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
