package io.lakesync.tiering.lake;

import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.paimon.catalog.CatalogLock;
import org.apache.paimon.catalog.CatalogLockContext;
import org.apache.paimon.catalog.CatalogLockFactory;
import org.apache.paimon.options.CatalogOptions;

/**
 * Paimon's catalog lock ({@code lock.type = lakesync-in-process}) for a filesystem catalog on an object store that
 * has no lock of its own: one lock per table for every committer in this JVM (a round's commit, the maintenance
 * compaction beside it, a table's creation).
 *
 * <p>On an object store creating {@code snapshot-N} is a check followed by a write, not an atomic create, so two
 * committers could both write snapshot N; under this lock they take turns within one process. It cannot reach other
 * processes: several instances on one warehouse need a catalog that locks across them (see {@link CommitSafety}).
 */
public final class InProcessCommitLock implements CatalogLockFactory {

    private static final long serialVersionUID = 1L;

    public static final String IDENTIFIER = "lakesync-in-process";

    private static final ConcurrentMap<String, ReentrantLock> TABLE_LOCKS = new ConcurrentHashMap<>();

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public CatalogLock createLock(CatalogLockContext context) {
        String warehouse = context.options().get(CatalogOptions.WAREHOUSE);
        return new CatalogLock() {
            @Override
            public <T> T runWithLock(String database, String table, Callable<T> callable) throws Exception {
                ReentrantLock lock = TABLE_LOCKS.computeIfAbsent(
                        warehouse + "/" + database + "/" + table, key -> new ReentrantLock());
                lock.lockInterruptibly();
                try {
                    return callable.call();
                } finally {
                    lock.unlock();
                }
            }

            @Override
            public void close() {}
        };
    }
}
