package io.lakesync.tiering.lake;

import org.apache.paimon.catalog.AbstractCatalog;
import org.apache.paimon.catalog.Catalog;

/**
 * What keeps two commits to one lake table from both writing the same {@code snapshot-N}: every Paimon commit
 * writes the next snapshot file only if it does not exist yet, and lakesync's fence is sound only where that
 * check-and-write cannot interleave with another committer's.
 */
public enum CommitSafety {
    /** The storage creates a file atomically only if absent (local disk, HDFS): any number of committers. */
    ATOMIC_STORAGE,
    /**
     * The catalog commits itself or holds a lock across processes (Paimon's JDBC catalog with a lock, Hive's lock,
     * a REST catalog): any number of committers.
     */
    CATALOG_LOCK,
    /**
     * An object store with no catalog lock: lakesync's {@link InProcessCommitLock} serialises the commits of one
     * process, but two processes could overwrite each other's snapshot. One instance only.
     */
    IN_PROCESS_LOCK_ONLY;

    /** The safety of {@code catalog} as Paimon opened it (before lakesync adds its in-process lock). */
    static CommitSafety of(Catalog catalog) {
        if (!(catalog instanceof AbstractCatalog fileCatalog)) {
            // A catalog that is not Paimon's file-based one commits snapshots through its own server.
            return CATALOG_LOCK;
        }
        if (!fileCatalog.fileIO().isObjectStore()) {
            return ATOMIC_STORAGE;
        }
        return fileCatalog.lockFactory().isPresent() ? CATALOG_LOCK : IN_PROCESS_LOCK_ONLY;
    }
}
