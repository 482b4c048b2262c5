package io.lakesync.tiering.lake;

import io.lakesync.config.LakeCatalogCheck;
import io.lakesync.errors.ErrorMessages;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Paimon catalog that holds the lake tables, opened once per service from the lake catalog options.
 *
 * <p>Paimon's catalog cache is turned off: a cached table keeps the schema it was loaded with, so a column
 * Fluss added since would look like a lake table changed behind Fluss's back, and rows would be written in
 * the old layout; and its snapshot cache, keyed by file path, would show a deleted and re-created lake table
 * the snapshots of the deleted one. Every load reads schema and snapshots as they are now.
 *
 * <p>Paimon 1.3.1's JDBC catalog opens its database connections once and never replaces one the server closed
 * (its client pool has no reconnect), so after a restart of the catalog's database every call failed for good.
 * The catalog handed out here is therefore opened again after a call failed on a lost connection (SQL state class
 * 08); that call fails, and the next one, a round's retry for instance, goes through the new connections. Its
 * commit lock is lakesync's {@link LeasedJdbcCommitLock} unless the options name another {@code lock.type}: a lock
 * that a dead holder or a restarted database leaves behind is free within seconds, not Paimon's eight minutes.
 */
public final class LakeTables implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LakeTables.class);

    private final Map<String, String> options;
    private final CommitSafety commitSafety;
    /** The catalog calls go to; replaced when it lost its database connection. */
    private volatile Catalog opened;
    private final Catalog catalog;

    /**
     * Opens the catalog; options that cannot work (a JDBC catalog without a driver or a database) fail first with
     * the config key to fix ({@link LakeCatalogCheck}). A filesystem catalog on an object store without a lock gets
     * lakesync's {@link InProcessCommitLock}, so this process's own committers never collide.
     */
    public LakeTables(Map<String, String> catalogOptions) {
        LakeCatalogCheck.check(catalogOptions);
        Map<String, String> options = new HashMap<>(catalogOptions);
        options.put(CatalogOptions.CACHE_ENABLED.key(), "false");
        if (LeasedJdbcCommitLock.serves(options)) {
            options.putIfAbsent(CatalogOptions.LOCK_TYPE.key(), LeasedJdbcCommitLock.IDENTIFIER);
        }
        Catalog first = open(options);
        this.commitSafety = CommitSafety.of(first);
        if (commitSafety == CommitSafety.IN_PROCESS_LOCK_ONLY) {
            closeQuietly(first);
            options.put(CatalogOptions.LOCK_ENABLED.key(), "true");
            options.put(CatalogOptions.LOCK_TYPE.key(), InProcessCommitLock.IDENTIFIER);
            first = open(options);
        }
        this.options = Map.copyOf(options);
        this.opened = first;
        this.catalog = (Catalog) Proxy.newProxyInstance(
                Catalog.class.getClassLoader(), new Class<?>[] {Catalog.class}, (proxy, method, args) -> {
                    Catalog used = opened;
                    try {
                        return method.invoke(used, args);
                    } catch (InvocationTargetException e) {
                        if (lostConnection(e.getCause())) {
                            reopenAfter(used, e.getCause());
                        }
                        throw e.getCause();
                    }
                });
    }

    /** Opens the catalog again, unless another call did since {@code broken} failed. */
    private synchronized void reopenAfter(Catalog broken, Throwable why) {
        if (opened != broken) {
            return;
        }
        LOG.warn("The lake catalog lost its database connection ({}); opening it again",
                ErrorMessages.rootMessage(why));
        opened = open(options);
        closeQuietly(broken);
    }

    /** Whether {@code failure} comes from a database connection that is gone (SQL state class 08). */
    static boolean lostConnection(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
                return true;
            }
        }
        return false;
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
            // Opened only to learn its file system and lock, or replaced after it lost its connection.
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
        opened.close();
    }
}
