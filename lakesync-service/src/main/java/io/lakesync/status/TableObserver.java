package io.lakesync.status;

import io.lakesync.config.LakeSyncOptions;
import io.lakesync.fluss.Deadline;
import io.lakesync.errors.ErrorMessages;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.fluss.metadata.TablePath;

/** Reads what the cluster and the lake say about the tables, each call bounded by the caller's deadline. */
public interface TableObserver {

    /** Every table of every database. */
    List<TablePath> listTables(Deadline deadline) throws Exception;

    /** Succeeds when the lake catalog answers. */
    void probeLake(Deadline deadline) throws Exception;

    TableObservation observe(TablePath path, Deadline deadline) throws Exception;

    /**
     * Observes the tables of one refresh, in their order; each future fails alone with why its table could not be
     * observed. This one observes each table on its own on {@code pool}, each within {@code callTimeout}; once one
     * ran out of time, the tables not yet started are not tried (their futures fail with the reason), so a refresh
     * never queues up behind a server that does not answer. An observer that reads many tables in one call
     * overrides it.
     *
     * @param activity what the engines did with each table (by name), as this instance knows it now: a table's
     *     lake snapshot changes only in a tiering round, so an observer may keep what it read of a table until one
     *     of its rounds ends
     */
    default List<? extends Future<TableObservation>> observeAll(
            List<TablePath> tables, Map<String, EngineActivity> activity, Duration callTimeout, ExecutorService pool) {
        AtomicReference<String> timedOut = new AtomicReference<>();
        List<Future<TableObservation>> futures = new ArrayList<>(tables.size());
        for (TablePath path : tables) {
            futures.add(pool.submit(() -> {
                String earlier = timedOut.get();
                if (earlier != null) {
                    throw new IllegalStateException("not tried in this refresh after an earlier table's observation "
                            + "ran out of time ('" + LakeSyncOptions.STATUS_CALL_TIMEOUT.key() + "'): " + earlier);
                }
                try {
                    return observe(path, Deadline.in(callTimeout));
                } catch (TimeoutException e) {
                    timedOut.compareAndSet(null, ErrorMessages.describe(e));
                    throw e;
                }
            }));
        }
        return futures;
    }
}
