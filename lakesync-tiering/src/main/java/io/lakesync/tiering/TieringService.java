package io.lakesync.tiering;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.tiering.connection.ReconnectingConnection;
import io.lakesync.tiering.coordinator.FlussTieringCoordinator;
import io.lakesync.tiering.coordinator.HeartbeatRequest;
import io.lakesync.tiering.coordinator.HeartbeatResponse;
import io.lakesync.tiering.coordinator.TableAssignment;
import io.lakesync.tiering.coordinator.TableEpoch;
import io.lakesync.tiering.coordinator.TieringCoordinator;
import io.lakesync.tiering.lake.HadoopConfigFiles;
import io.lakesync.tiering.lake.LakeTables;
import io.lakesync.tiering.round.RoundControl;
import io.lakesync.tiering.round.RoundEnvironment;
import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.tiering.round.RoundResult;
import io.lakesync.tiering.round.TableRound;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.exception.ApiException;
import org.apache.fluss.exception.InvalidCoordinatorException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The native tiering engine of one lakesync instance. It takes part in the Fluss coordinator's lake-tiering
 * protocol exactly like Fluss's own Flink job, so any mix of lakesync instances (and the Flink job during a
 * migration) can serve one cluster, each table held by one of them at a time:
 *
 * <pre>
 *            register (empty heartbeat → coordinator epoch)
 *                 │
 *                 ▼
 *   ┌──► heartbeat: tables in progress · finished (+force-finished) · failed · "one more?" ──┐
 *   │                                                                                       │
 *   │   per-table error (fenced epoch, table gone) → cancel that round, never commit        │
 *   │   InvalidCoordinator → take the new coordinator epoch                                 │
 *   │   table handed out → start a round on a worker; ask again at once while capacity left │
 *   └────────────────────────────── wait the poll interval, or until a round ends ◄─────────┘
 * </pre>
 *
 * A table whose round fails stays with this instance and is retried with exponential backoff, or checked
 * again now and then while it is blocked by a problem only the user can fix (its heartbeats continue); a
 * waiting table holds no worker, so a broken table neither loops through the coordinator nor delays others.
 * A round that lost its table is dropped. On close, unfinished tables are reported failed so the coordinator hands
 * them out again at once; after a crash, the in-flight journal does the same on the next start.
 */
public final class TieringService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TieringService.class);
    private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(30);
    private static final Map<String, String> TIERING_CLIENT_DEFAULTS = Map.of(
            ConfigOptions.CLIENT_SCANNER_LOG_MAX_POLL_RECORDS.key(), "8192",
            ConfigOptions.CLIENT_SCANNER_LOG_FETCH_MAX_BYTES_FOR_BUCKET.key(), "8mb",
            ConfigOptions.CLIENT_SCANNER_LOG_FETCH_MAX_BYTES.key(), "64mb");

    private final LakeSyncConfig config;
    private final TieringListener listener;
    private final RoundHooks hooks;
    private final Clock clock;
    private final int workers;
    private final Duration pollInterval;
    private final RetryBackoff backoff;
    private final Duration blockedRecheck;
    private final boolean continuous;
    private final Duration continuousMaxHold;
    private final Path workDir;
    private final Map<Long, ActiveTable> active = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Report> reports = new ConcurrentLinkedQueue<>();
    private final Object wakeUp = new Object();

    private ReconnectingConnection connection;
    private TieringCoordinator coordinator;
    private LakeTables lakeTables;
    private InFlightJournal journal;
    private ExecutorService roundThreads;
    private ExecutorService readerThreads;
    private ScheduledExecutorService retryScheduler;
    private RoundEnvironment environment;
    private Thread assigner;
    private volatile boolean running;
    private volatile int coordinatorEpoch;
    private volatile boolean otherTablesWaiting;
    private boolean coordinatorReachable = true;

    public TieringService(LakeSyncConfig config) {
        this(config, TieringListener.NONE, RoundHooks.NONE, Clock.systemUTC());
    }

    public TieringService(LakeSyncConfig config, TieringListener listener, RoundHooks hooks, Clock clock) {
        this.config = config;
        this.listener = listener;
        this.hooks = hooks;
        this.clock = clock;
        this.workers = positive(config.get(LakeSyncOptions.TIERING_WORKERS), LakeSyncOptions.TIERING_WORKERS.key());
        this.pollInterval = config.get(LakeSyncOptions.TIERING_POLL_INTERVAL);
        this.backoff =
                new RetryBackoff(
                        config.get(LakeSyncOptions.TIERING_RETRY_INITIAL_BACKOFF),
                        config.get(LakeSyncOptions.TIERING_RETRY_MAX_BACKOFF),
                        () -> ThreadLocalRandom.current().nextDouble());
        this.blockedRecheck = config.get(LakeSyncOptions.TIERING_BLOCKED_RECHECK_INTERVAL);
        this.continuous = config.get(LakeSyncOptions.TIERING_CONTINUOUS);
        this.continuousMaxHold = config.get(LakeSyncOptions.TIERING_CONTINUOUS_MAX_HOLD);
        this.workDir = Path.of(config.get(LakeSyncOptions.DATA_DIR)).toAbsolutePath().resolve("tiering");
    }

    /** Connects to Fluss and the lake catalog and starts syncing in the background; returns at once. */
    public synchronized void start() throws Exception {
        if (running) {
            return;
        }
        Configuration flussConf = config.flussClientConfiguration();
        // Bulk reading wants bigger fetches and polls than the client's interactive defaults (500 records,
        // 1 MB per bucket); a user's own fluss.* settings win.
        TIERING_CLIENT_DEFAULTS.forEach((key, value) -> {
            if (!flussConf.containsKey(key)) {
                flussConf.setString(key, value);
            }
        });
        if (!flussConf.containsKey(ConfigOptions.BOOTSTRAP_SERVERS.key())) {
            throw new IllegalArgumentException(
                    "Config key 'fluss.bootstrap.servers' is not set: lakesync needs the address of the Fluss cluster.");
        }
        Path ioTmpDir = Files.createDirectories(workDir.resolve("io-tmp"));
        connection = ReconnectingConnection.open(flussConf);
        coordinator = new FlussTieringCoordinator(connection.coordinatorGateway());
        lakeTables = new LakeTables(config.lakeCatalogOptions());
        journal = new InFlightJournal(workDir.resolve("in-flight"));
        roundThreads = Executors.newFixedThreadPool(workers, named("lakesync-round"));
        readerThreads = Executors.newCachedThreadPool(named("lakesync-reader"));
        retryScheduler = Executors.newSingleThreadScheduledExecutor(named("lakesync-retry"));
        environment =
                new RoundEnvironment(
                        connection,
                        coordinator,
                        () -> coordinatorEpoch,
                        lakeTables,
                        readerThreads,
                        bucketParallelism(config),
                        config.get(LakeSyncOptions.TIERING_IDLE_READ_TIMEOUT),
                        ioTmpDir,
                        clock,
                        hooks);
        running = true;
        assigner = new Thread(this::assignLoop, "lakesync-tiering-assigner");
        assigner.setDaemon(true);
        assigner.start();
    }

    private long runningRounds() {
        return active.values().stream().filter(t -> t.running).count();
    }

    /** Whether the engine's heartbeats reach the coordinator (what {@code /health} reports). */
    public EngineHealth health() {
        return coordinatorReachable
                ? new EngineHealth(true, null, null)
                : new EngineHealth(false, "The Fluss coordinator cannot be reached.", null);
    }

    /** Tables this instance holds right now. */
    public Set<TableAssignment> activeTables() {
        Set<TableAssignment> tables = new HashSet<>();
        active.values().forEach(t -> tables.add(t.assignment));
        return tables;
    }

    private void assignLoop() {
        try {
            register();
            while (running) {
                boolean tookTable = heartbeatOnce();
                if (!(tookTable && runningRounds() < workers)) {
                    waitForWork(pollInterval);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void register() throws InterruptedException {
        while (running) {
            try {
                coordinatorEpoch =
                        coordinator.heartbeat(HeartbeatRequest.registration(), coordinatorEpoch).coordinatorEpoch();
                LOG.info("Registered with the Fluss coordinator as a tiering service (coordinator epoch {})", coordinatorEpoch);
                List<InFlightJournal.Entry> leftOver = journal.recover();
                journal.clear();
                for (InFlightJournal.Entry entry : leftOver) {
                    // Tables held by a previous run that crashed: give them back now rather than after the
                    // coordinator's 2-minute timeout.
                    LOG.info("Returning table id {} held by a previous run", entry.table().tableId());
                    coordinator.heartbeat(
                            new HeartbeatRequest(List.of(), List.of(), Set.of(), List.of(entry.table()), false),
                            entry.coordinatorEpoch());
                }
                return;
            } catch (Exception e) {
                markUnreachable(e);
                waitForWork(pollInterval);
            }
        }
    }

    /** One heartbeat; returns whether it brought a new table. */
    private boolean heartbeatOnce() {
        List<Report> sent = new ArrayList<>();
        Report report;
        while ((report = reports.poll()) != null) {
            sent.add(report);
        }
        List<TableEpoch> inProgress = new ArrayList<>();
        active.values().forEach(t -> inProgress.add(t.assignment.epoch()));
        List<TableEpoch> finished = new ArrayList<>();
        Set<Long> forceFinished = new HashSet<>();
        List<TableEpoch> failed = new ArrayList<>();
        for (Report r : sent) {
            if (r.failed) {
                failed.add(r.table);
            } else {
                finished.add(r.table);
                if (r.forceFinished) {
                    forceFinished.add(r.table.tableId());
                }
            }
        }
        boolean capacity = runningRounds() < workers;
        HeartbeatRequest request = new HeartbeatRequest(inProgress, finished, forceFinished, failed, capacity);
        HeartbeatResponse response;
        try {
            response = coordinator.heartbeat(request, coordinatorEpoch);
        } catch (Exception e) {
            reports.addAll(sent);
            markUnreachable(e);
            return false;
        }
        if (!coordinatorReachable) {
            coordinatorReachable = true;
            LOG.info("Fluss coordinator reachable again");
        }
        for (Report r : sent) {
            journal.remove(r.table.tableId());
        }
        if (response.coordinatorEpoch() != coordinatorEpoch) {
            LOG.info("Fluss coordinator changed (epoch {} -> {})", coordinatorEpoch, response.coordinatorEpoch());
            coordinatorEpoch = response.coordinatorEpoch();
        }
        for (TableEpoch table : inProgress) {
            Optional<ApiException> error = response.errorFor(table.tableId());
            ActiveTable held = active.get(table.tableId());
            if (error.isPresent() && held != null && held.assignment.tieringEpoch() == table.tieringEpoch()) {
                String why = error.get() instanceof InvalidCoordinatorException
                        ? "the Fluss coordinator changed"
                        : error.get().getMessage();
                held.control.cancel("The coordinator took back " + held.assignment + ": " + why);
                if (!held.running) {
                    ScheduledFuture<?> retry = held.retry;
                    if (retry != null) {
                        retry.cancel(false);
                    }
                    LOG.info("Gave up table {}: {}", held.assignment, why);
                    release(held, true, false);
                }
            }
        }
        if (capacity) {
            // The only view of the coordinator's queue a tiering service gets: was a table waiting while this
            // instance already held some? Then held tables go back after their current round.
            otherTablesWaiting = response.assigned().isPresent() && !inProgress.isEmpty();
        }
        if (response.assigned().isPresent() && running) {
            startRound(response.assigned().get());
            return true;
        }
        return false;
    }

    private void startRound(TableAssignment assignment) {
        ActiveTable table =
                new ActiveTable(
                        assignment,
                        new RoundControl(clock, config.get(LakeSyncOptions.TIERING_IDLE_READ_TIMEOUT)),
                        clock.instant());
        active.put(assignment.tableId(), table);
        journal.add(assignment.epoch(), coordinatorEpoch);
        LOG.info("Took table {} from the coordinator", assignment);
        listener.roundStarted(assignment);
        submitAttempt(table);
    }

    private void submitAttempt(ActiveTable table) {
        table.running = true;
        roundThreads.execute(() -> attempt(table));
    }

    /**
     * Runs one attempt of the table's round. A failure keeps the table (its heartbeats go on) and schedules
     * the next attempt, without holding a worker meanwhile, so failing tables never crowd out healthy ones.
     */
    private void attempt(ActiveTable table) {
        TableAssignment assignment = table.assignment;
        try {
            RoundResult result = new TableRound(assignment, environment, table.control).run();
            logFinished(result);
            listener.roundFinished(result);
            table.attempts = 0;
            table.lastFailure = null;
            if (keepSyncing(table, result)) {
                table.running = false;
                Duration pause = result.forceFinished() ? Duration.ZERO : table.continuousInterval.minus(result.duration());
                table.retry = retryScheduler.schedule(() -> {
                    if (table.control.isCancelled() || !running) {
                        release(table, true, false);
                    } else {
                        submitAttempt(table);
                    }
                }, Math.max(0, pause.toMillis()), TimeUnit.MILLISECONDS);
            } else {
                release(table, false, result.forceFinished());
            }
        } catch (Throwable failure) {
            FailureKind kind = FailureKind.of(failure);
            if (kind == FailureKind.LOST || !running || table.control.isCancelled()) {
                LOG.info("Gave up table {}: {}", assignment, describe(failure));
                listener.roundFailed(assignment, failure, FailureKind.LOST, null);
                release(table, true, false);
                return;
            }
            table.attempts++;
            Duration wait = kind == FailureKind.BLOCKED ? blockedRecheck : backoff.delay(table.attempts);
            String reason = describe(failure);
            if (!reason.equals(table.lastFailure)) {
                if (kind == FailureKind.BLOCKED) {
                    LOG.warn("Table {} is blocked, checking again every {} s: {}", assignment.tablePath(), wait.toSeconds(), reason);
                } else {
                    LOG.warn("Round of table {} failed, retrying in {} ms: {}", assignment.tablePath(), wait.toMillis(), reason);
                }
                LOG.debug("Round failure of {}", assignment, failure);
                table.lastFailure = reason;
            }
            listener.roundFailed(assignment, failure, kind, wait);
            table.running = false;
            table.retry = retryScheduler.schedule(() -> {
                if (table.control.isCancelled() || !running) {
                    release(table, true, false);
                } else {
                    submitAttempt(table);
                }
            }, wait.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Whether to run the table's next round now instead of handing it back, where the coordinator would keep it
     * a full freshness before offering it again: only for a table that had data, while the coordinator had no
     * other table waiting when last asked (a held table between rounds leaves its worker free, so the asking
     * goes on), and for at most the max hold per hand-out.
     */
    private boolean keepSyncing(ActiveTable table, RoundResult result) {
        if (!continuous || !running || table.control.isCancelled() || result.records() == 0 || otherTablesWaiting) {
            return false;
        }
        Duration freshness = table.control.maxDuration();
        if (freshness == null) {
            return false;
        }
        table.continuousInterval = freshness.dividedBy(2);
        return Duration.between(table.heldSince, clock.instant()).compareTo(continuousMaxHold) < 0;
    }

    /** Hands a table back: it is reported to the coordinator with the next heartbeat. */
    private void release(ActiveTable table, boolean failed, boolean forceFinished) {
        if (table.released.compareAndSet(false, true)) {
            table.running = false;
            active.remove(table.assignment.tableId());
            reports.add(new Report(table.assignment.epoch(), failed, forceFinished));
            wake();
        }
    }

    private void logFinished(RoundResult result) {
        if (result.committed()) {
            LOG.info(
                    "Table {}: tiered {} records into lake snapshot {} in {} ms{}",
                    result.assignment().tablePath(),
                    result.records(),
                    result.lakeSnapshotId(),
                    result.duration().toMillis(),
                    result.forceFinished() ? " (freshness reached, continuing)" : "");
        } else {
            LOG.debug("Table {}: nothing new to tier", result.assignment().tablePath());
        }
    }

    private void markUnreachable(Exception e) {
        if (coordinatorReachable) {
            coordinatorReachable = false;
            LOG.warn("Fluss coordinator unreachable, retrying every {} ms: {}", pollInterval.toMillis(), describe(e));
        }
    }

    private void waitForWork(Duration timeout) throws InterruptedException {
        synchronized (wakeUp) {
            if (reports.isEmpty() && running) {
                wakeUp.wait(Math.max(1, timeout.toMillis()));
            }
        }
    }

    private void wake() {
        synchronized (wakeUp) {
            wakeUp.notifyAll();
        }
    }

    /**
     * Stops syncing. Rounds in progress are cancelled (a round already committing finishes its commit), and
     * every table not finished is reported failed so the coordinator hands it out again at once.
     */
    @Override
    public synchronized void close() throws Exception {
        if (!running) {
            return;
        }
        running = false;
        wake();
        assigner.interrupt();
        assigner.join(TimeUnit.SECONDS.toMillis(10));
        active.values().forEach(t -> t.control.cancel("lakesync is shutting down"));
        retryScheduler.shutdownNow();
        roundThreads.shutdown();
        if (!roundThreads.awaitTermination(SHUTDOWN_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
            roundThreads.shutdownNow();
        }
        readerThreads.shutdownNow();
        List<TableEpoch> finished = new ArrayList<>();
        Set<Long> forceFinished = new HashSet<>();
        List<TableEpoch> failed = new ArrayList<>();
        for (Report r : reports) {
            (r.failed ? failed : finished).add(r.table);
            if (r.forceFinished) {
                forceFinished.add(r.table.tableId());
            }
        }
        active.values().forEach(t -> failed.add(t.assignment.epoch()));
        try {
            if (!finished.isEmpty() || !failed.isEmpty()) {
                coordinator.heartbeat(new HeartbeatRequest(List.of(), finished, forceFinished, failed, false), coordinatorEpoch);
            }
            journal.clear();
        } catch (Exception e) {
            LOG.warn("Could not hand tables back to the coordinator on shutdown ({}); it will after its timeout", describe(e));
        }
        lakeTables.close();
        connection.close();
        LOG.info("Tiering service stopped");
    }

    private static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
        return root == e ? message : e.getClass().getSimpleName() + ": " + message;
    }

    private static int bucketParallelism(LakeSyncConfig config) {
        int configured = config.get(LakeSyncOptions.TIERING_BUCKET_PARALLELISM);
        if (configured < 0) {
            throw new IllegalArgumentException(
                    "Config key '" + LakeSyncOptions.TIERING_BUCKET_PARALLELISM.key() + "' must be 0 (one per core) "
                            + "or more, but is " + configured + ".");
        }
        return configured == 0 ? Runtime.getRuntime().availableProcessors() : configured;
    }

    private static int positive(int value, String key) {
        if (value <= 0) {
            throw new IllegalArgumentException("Config key '" + key + "' must be at least 1, but is " + value + ".");
        }
        return value;
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            thread.setContextClassLoader(HadoopConfigFiles.over(thread.getContextClassLoader()));
            return thread;
        };
    }

    /** A table this instance holds: its round's control and, while failing, the scheduled retry. */
    private static final class ActiveTable {
        final TableAssignment assignment;
        final RoundControl control;
        final AtomicBoolean released = new AtomicBoolean();
        final Instant heldSince;
        volatile Duration continuousInterval;
        volatile boolean running;
        volatile ScheduledFuture<?> retry;
        int attempts;
        String lastFailure;

        ActiveTable(TableAssignment assignment, RoundControl control, Instant heldSince) {
            this.assignment = assignment;
            this.control = control;
            this.heldSince = heldSince;
        }
    }

    /** A round outcome still to be reported to the coordinator. */
    private record Report(TableEpoch table, boolean failed, boolean forceFinished) {}
}
