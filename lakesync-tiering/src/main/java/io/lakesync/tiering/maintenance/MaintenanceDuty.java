package io.lakesync.tiering.maintenance;

import io.lakesync.config.LakeSyncOptions;
import io.lakesync.errors.ErrorMessages;
import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.retry.RetryBackoff;
import io.lakesync.tiering.TieringListener;
import io.lakesync.tiering.lake.LakeReadability;
import io.lakesync.tiering.lake.LakeTableKind;
import io.lakesync.tiering.lake.LakeTables;
import io.lakesync.tiering.round.RoundResult;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.table.FileStoreTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the lake tables this instance syncs healthy: after a round of a table committed, and at most once per
 * its {@code maintenance.interval} (the first one interval after its first committed round here), a
 * {@link LakeMaintenance} pass of the table runs on the maintenance
 * executor, never on a round's thread, so it cannot delay any table's round. Between passes, a primary-key
 * table's buckets are kept within Paimon's bound of sorted runs, which rounds would otherwise grow by one each.
 *
 * <pre>
 *   round committed ──► pass due? (enabled, interval since the last pass, no pass of the table running)
 *                          │ yes                                   │ no: could a bucket have reached
 *                          ▼                                       ▼    num-sorted-run.stop-trigger runs?
 *   maintenance executor: options from the Fluss table ──►     compact those buckets (universal, not full);
 *     compact ──► expire (pinned at the coordinator's           count again from what is left
 *     lake snapshot) ──► delete orphans ──► figures ──► listener.maintained(report)
 *                          │ fails: one log line per new reason, reported; tried again after a backoff
 * </pre>
 *
 * <p>A primary-key table with deletion vectors is the exception: its rounds compact it (see
 * {@link LakeReadability}), and Paimon cannot have a second compactor beside them (a compaction planned before a
 * round's deletion vectors landed brings deleted rows back). Its pass runs on the round's thread after the
 * round committed, before the table is handed back to the coordinator: it delays the table's next round by the
 * pass, never another table's round.
 */
public final class MaintenanceDuty implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceDuty.class);
    /** How long a write of the schedule waits for more records to take along. */
    static final Duration SCHEDULE_WRITE_DELAY = Duration.ofSeconds(1);

    private final Configuration defaults;
    private final FlussClient fluss;
    private final LakeTables lakeTables;
    private final Path ioTmpDir;
    private final ExecutorService executor;
    private final Clock clock;
    private final Map<Long, TableState> tables = new ConcurrentHashMap<>();
    private final MaintenanceSchedule schedule;
    private final RetryBackoff retry = RetryBackoff.jittered(Duration.ofSeconds(15), Duration.ofMinutes(5));

    /**
     * {@code scheduleFile}: where the instance keeps when each table's next pass is due, across restarts; its writes
     * run on {@code scheduleWriter} (see {@link #delayedWriter}).
     */
    public MaintenanceDuty(
            Configuration defaults,
            FlussClient fluss,
            LakeTables lakeTables,
            Path ioTmpDir,
            Path scheduleFile,
            ExecutorService executor,
            Executor scheduleWriter,
            Clock clock) {
        this.schedule = new MaintenanceSchedule(scheduleFile, clock, scheduleWriter);
        this.defaults = defaults;
        this.fluss = fluss;
        this.lakeTables = lakeTables;
        this.ioTmpDir = ioTmpDir;
        this.executor = executor;
        this.clock = clock;
    }

    /**
     * {@code listener}, told of everything as before and of every maintenance pass; committed rounds trigger the
     * passes. Built with {@link TieringListener#all} so that no engine event is lost on the way.
     */
    public TieringListener around(TieringListener listener) {
        TieringListener trigger = new TieringListener() {
            @Override
            public void roundFinished(RoundResult result) {
                if (result.committed()) {
                    due(result.assignment(), result.lakeKind(), listener);
                }
            }
        };
        return TieringListener.all(List.of(listener, trigger));
    }

    private void due(TableAssignment assignment, LakeTableKind kind, TieringListener listener) {
        // The first pass comes one interval after the table's first committed round on this instance, not at once,
        // and restarts keep that time (MaintenanceSchedule): a restart neither sets off a pass of every table nor
        // puts the passes off.
        TableState state = tables.computeIfAbsent(assignment.tableId(), id -> new TableState(
                schedule.nextPass(id, defaults.get(LakeSyncOptions.MAINTENANCE_INTERVAL))));
        Runnable pass;
        synchronized (state) {
            if (state.sortedRunLimit != Integer.MAX_VALUE) {
                state.sortedRuns++;
            }
            if (state.running) {
                return;
            }
            if (kind == LakeTableKind.APPEND) {
                // No sorted runs to bound: nothing to check between passes.
                state.sortedRunLimit = Integer.MAX_VALUE;
            }
            Instant now = clock.instant();
            if (!now.isBefore(state.nextPass)) {
                pass = () -> pass(assignment, state, listener);
            } else if (state.sortedRuns >= state.sortedRunLimit && !now.isBefore(state.nextRunBound)) {
                pass = () -> boundSortedRuns(assignment, state);
            } else {
                return;
            }
            state.running = true;
        }
        if (kind == LakeTableKind.COMPACTED_BY_ROUNDS) {
            // Paimon admits one compactor per deletion-vector table, and its rounds compact it: the pass runs in
            // the round's slot, before the table is handed back, so never beside a round of the table.
            pass.run();
            return;
        }
        try {
            executor.execute(pass);
        } catch (RejectedExecutionException shuttingDown) {
            state.running = false;
        }
    }

    private void pass(TableAssignment assignment, TableState state, TieringListener listener) {
        TablePath path = assignment.tablePath();
        Instant start = clock.instant();
        Duration interval = defaults.get(LakeSyncOptions.MAINTENANCE_INTERVAL);
        MaintenanceReport report;
        Duration retryIn = null;
        try {
            TableInfo info = fluss.tableInfo(path).get();
            if (info.getTableId() != assignment.tableId()) {
                return;
            }
            MaintenanceOptions options = MaintenanceOptions.of(defaults, info);
            interval = options.interval();
            if (!options.enabled()) {
                return;
            }
            FileStoreTable lake = lakeTables.load(path);
            boolean full = state.lastFullCompaction == null
                    || !start.isBefore(state.lastFullCompaction.plus(options.fullCompactionInterval()));
            LakeMaintenance.Outcome outcome =
                    new LakeMaintenance(lake, options, ioTmpDir, clock).run(lakeSnapshot(path), full);
            Instant end = clock.instant();
            if (full) {
                state.lastFullCompaction = start;
            }
            if (outcome.compactedBuckets() > 0) {
                state.lastCompaction = end;
            }
            if (outcome.expiredSnapshots() > 0) {
                state.lastExpiry = end;
            }
            state.bytesReclaimed += outcome.bytesReclaimed();
            LakeFigures figures = LakeFigures.of(lakeTables.load(path));
            report = new MaintenanceReport(path, end, Duration.between(start, end), figures,
                    outcome.compactedBuckets(), outcome.expiredSnapshots(), outcome.orphanFilesDeleted(),
                    outcome.bytesReclaimed(), state.bytesReclaimed, state.lastCompaction, state.lastExpiry, null);
            log(report, state);
            state.failures = 0;
        } catch (Exception e) {
            if (executor.isShutdown()) {
                // Stopping: an interrupted pass is expected; what it wrote without committing is an orphan.
                LOG.debug("Lake maintenance of {} stopped: {}", path, ErrorMessages.rootMessage(e));
                return;
            }
            // A failed pass (a storage or state-database outage, most often) is tried again soon, not an interval on.
            retryIn = min(interval, retry.delay(++state.failures));
            String problem = "Lake maintenance of " + path + " failed: " + ErrorMessages.rootMessage(e);
            if (!problem.equals(state.problem)) {
                LOG.warn("{} (trying again in {} s)", problem, retryIn.toSeconds());
                LOG.debug("Lake maintenance failure", e);
            }
            state.problem = problem;
            Instant end = clock.instant();
            report = new MaintenanceReport(path, end, Duration.between(start, end), LakeFigures.NONE, 0, 0, 0, 0,
                    state.bytesReclaimed, state.lastCompaction, state.lastExpiry, problem);
        } finally {
            Instant next = start.plus(retryIn == null ? interval : retryIn);
            synchronized (state) {
                state.nextPass = next;
                // Options may have changed (maintenance switched on, another stop-trigger): check at the next round.
                state.sortedRunLimit = 0;
                state.running = false;
            }
            schedule.record(assignment.tableId(), next);
        }
        listener.maintained(report);
    }

    /**
     * Between passes, keeps the sorted runs of each bucket of a primary-key table within Paimon's bound
     * ({@link LakeMaintenance#boundSortedRuns}): checked once the committed rounds since the last check could
     * have reached it (at a table's first round here, whatever the rounds of other instances left).
     */
    private void boundSortedRuns(TableAssignment assignment, TableState state) {
        TablePath path = assignment.tablePath();
        int limit = Integer.MAX_VALUE;
        int runs = 0;
        synchronized (state) {
            // From here on it counts the rounds committed since the check began (perhaps after its scan).
            state.sortedRuns = 0;
        }
        try {
            TableInfo info = fluss.tableInfo(path).get();
            FileStoreTable lake = lakeTables.load(path);
            MaintenanceOptions options = MaintenanceOptions.of(defaults, info);
            if (info.getTableId() == assignment.tableId() && options.enabled() && !lake.primaryKeys().isEmpty()
                    && !LakeReadability.compactsInRound(lake)) {
                Instant start = clock.instant();
                LakeMaintenance.RunBound bound = new LakeMaintenance(lake, options, ioTmpDir, clock).boundSortedRuns();
                limit = lake.coreOptions().numSortedRunStopTrigger();
                runs = bound.mostSortedRuns();
                if (bound.compactedBuckets() > 0) {
                    state.lastCompaction = clock.instant();
                    LOG.debug("Lake maintenance of {}: compacted {} buckets with {}+ sorted runs in {} ms", path,
                            bound.compactedBuckets(), limit, Duration.between(start, state.lastCompaction).toMillis());
                }
            }
            state.runFailures = 0;
        } catch (Exception e) {
            if (executor.isShutdown()) {
                return;
            }
            limit = 0;
            Duration wait = retry.delay(++state.runFailures);
            LOG.debug("Bounding the sorted runs of {} failed, trying again in {} ms: {}", path, wait.toMillis(),
                    ErrorMessages.rootMessage(e));
            state.nextRunBound = clock.instant().plus(wait);
        } finally {
            synchronized (state) {
                state.sortedRunLimit = limit;
                state.sortedRuns += runs;
                state.running = false;
            }
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** The oldest of the coordinator's latest and readable lake snapshots of the table; empty if it has none. */
    private OptionalLong lakeSnapshot(TablePath path) throws Exception {
        try {
            LakeSnapshot latest = fluss.latestLakeSnapshot(path).get();
            LakeSnapshot readable = fluss.readableLakeSnapshot(path).get();
            return OptionalLong.of(Math.min(latest.getSnapshotId(), readable.getSnapshotId()));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LakeTableSnapshotNotExistException) {
                return OptionalLong.empty();
            }
            throw e;
        }
    }

    private static void log(MaintenanceReport report, TableState state) {
        if (state.problem != null) {
            LOG.info("Lake maintenance of {} works again", report.tablePath());
            state.problem = null;
        }
        boolean changed = report.compactedBuckets() > 0 || report.expiredSnapshots() > 0 || report.orphanFilesDeleted() > 0;
        String line = "Lake maintenance of {}: compacted {} buckets, expired {} snapshots, deleted {} orphan files, "
                + "reclaimed {} bytes; now {} data files (avg {} bytes), {} snapshots, in {} ms";
        Object[] args = {report.tablePath(), report.compactedBuckets(), report.expiredSnapshots(),
            report.orphanFilesDeleted(), report.bytesReclaimed(), report.figures().dataFiles(),
            report.figures().averageFileBytes(), report.figures().snapshotsKept(), report.duration().toMillis()};
        if (changed) {
            LOG.info(line, args);
        } else {
            LOG.debug(line, args);
        }
    }

    /**
     * Runs the schedule's writes on {@code executor} once they waited {@link #SCHEDULE_WRITE_DELAY}, so that the
     * new tables of a burst of rounds (an instance's start, many tables created at once) are written together.
     */
    public static Executor delayedWriter(ExecutorService executor) {
        return CompletableFuture.delayedExecutor(SCHEDULE_WRITE_DELAY.toMillis(), TimeUnit.MILLISECONDS, executor);
    }

    /** Stops the passes; one in progress is interrupted (what it wrote but did not commit is an orphan). */
    @Override
    public void close() throws InterruptedException {
        executor.shutdownNow();
        executor.awaitTermination(10, TimeUnit.SECONDS);
        schedule.flush();
    }

    /** Per table: when the next pass may run, and what the passes did so far. */
    private static final class TableState {
        boolean running;
        Instant nextPass;
        @Nullable Instant lastFullCompaction;
        @Nullable Instant lastCompaction;
        @Nullable Instant lastExpiry;
        long bytesReclaimed;
        @Nullable String problem;
        int failures;
        /** Sorted runs a bucket may have at most, as last checked, plus one per committed round since. */
        int sortedRuns;
        /** When to check them: 0 until the first check, unbounded for tables that need none. */
        int sortedRunLimit;
        int runFailures;
        Instant nextRunBound = Instant.EPOCH;

        TableState(Instant firstPass) {
            this.nextPass = firstPass;
        }
    }
}
