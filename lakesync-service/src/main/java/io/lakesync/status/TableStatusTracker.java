package io.lakesync.status;

import io.lakesync.state.BatchedWriter;
import io.lakesync.tiering.FailureKind;
import io.lakesync.fluss.Deadline;
import io.lakesync.errors.ErrorMessages;
import io.lakesync.tiering.TieringListener;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.tiering.maintenance.MaintenanceReport;
import io.lakesync.tiering.round.RoundResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.apache.fluss.metadata.TablePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the status of every table: what the engine reports as it works (it is a {@link TieringListener})
 * combined with what the cluster says, re-read every refresh. Logs one line per state change, keeps a short
 * history per table for charts, and hands every refresh to its subscribers (metrics, alerts).
 *
 * <p>A refresh never hangs: listing the tables, probing the lake and observing the tables may each take at most
 * {@code status.call-timeout}. The observer reads the tables together ({@link TableObserver#observeAll}), with the
 * reads it cannot batch on a bounded pool ({@code status.refresh-parallelism}), so a refresh ends within about three
 * call timeouts; it is handed the engines' activity, so it may keep what only a tiering round changes. A table it
 * could not observe (Fluss or the lake did not answer, an earlier table ran out of time, the observation failed)
 * stays listed with its last observed figures marked stale and the error as its reason, and turns UNKNOWN as
 * {@link TableState} draws it; a table disappears only when Fluss lists the tables without it (dropped). The lake
 * not answering leaves every table unobserved the same way: its figures cannot be checked against the lake.
 *
 * <p>What the engines did with each table is kept on an {@link ActivityBoard}: with several instances on one
 * shared state, each round's outcome is added to the table's shared totals by the instance that ran it, and every
 * refresh reads the whole board, so every instance shows the same activity for every table. The engines' events
 * are written to the board by a {@link BatchedWriter}, in the background: an engine thread never waits for the
 * state database. While it does not answer, a table's events merge into one change (nothing is dropped); they are
 * kept in memory only, as display figures.
 *
 * <p>The state database not answering (the board, the service switch) does not stop a refresh: Fluss and the lake
 * are still observed, with the switch as last read and the activity this instance knows, and every table's reason,
 * like {@link #problems()}, says since when the state database is unreachable. Each read waits at most
 * {@code state.query-timeout}.
 */
public final class TableStatusTracker implements TieringListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TableStatusTracker.class);
    /** How often activity the state database did not take is tried again. */
    private static final Duration ACTIVITY_RETRY_INTERVAL = Duration.ofSeconds(2);

    private final TableObserver observer;
    private final Clock clock;
    private final BooleanSupplier serviceEnabled;
    private final int historySize;
    private final Duration callTimeout;
    private final Duration unknownAfter;
    private final ActivityBoard board;
    private final BatchedWriter<ActivityChange> writer;
    private final ExecutorService observers;
    private final Map<String, EngineActivity> activity = new ConcurrentHashMap<>();
    /** Per table, an activity holding only this instance's last maintenance pass (see {@link #activityOf}). */
    private final Map<String, EngineActivity> maintenance = new ConcurrentHashMap<>();
    /** Why a table's round waits for a compute unit (quota), while it does. */
    private final Map<String, String> heldBack = new ConcurrentHashMap<>();
    private final Map<String, TableStatus> statuses = new ConcurrentHashMap<>();
    private final Map<String, Deque<HistoryPoint>> history = new ConcurrentHashMap<>();
    private final Map<String, TablePath> paths = new ConcurrentHashMap<>();
    /** The status from each table's last successful observation. */
    private final Map<String, TableStatus> observed = new HashMap<>();
    private final Map<String, Instant> failingSince = new HashMap<>();
    private final Map<String, Instant> pendingSince = new HashMap<>();
    private final Map<String, Long> pendingAtSnapshot = new HashMap<>();
    private final List<Consumer<List<TableStatus>>> subscribers = new CopyOnWriteArrayList<>();
    private volatile String flussProblem;
    private volatile String lakeProblem;
    /** Why the state database cannot be read, since when; null while it answers. */
    @Nullable private volatile String stateProblem;
    /** The service switch as last read; a cluster nobody switched counts as on. */
    private volatile boolean lastSwitch = true;
    private ScheduledExecutorService scheduler;

    /** A tracker of this instance alone: activity in memory, tables observed one at a time. */
    public TableStatusTracker(
            TableObserver observer,
            Clock clock,
            BooleanSupplier serviceEnabled,
            int historySize,
            Duration callTimeout,
            Duration unknownAfter) {
        this(observer, ActivityBoard.inMemory("local"), 1, clock, serviceEnabled, historySize, callTimeout,
                unknownAfter);
    }

    /**
     * @param callTimeout how long one call of a refresh may wait for Fluss or the lake
     * @param unknownAfter how long after its last observation a table that cannot be observed becomes UNKNOWN
     * @param parallelism how many tables are observed at the same time
     */
    public TableStatusTracker(
            TableObserver observer,
            ActivityBoard board,
            int parallelism,
            Clock clock,
            BooleanSupplier serviceEnabled,
            int historySize,
            Duration callTimeout,
            Duration unknownAfter) {
        this.observer = observer;
        this.clock = clock;
        this.serviceEnabled = serviceEnabled;
        this.historySize = historySize;
        this.callTimeout = callTimeout;
        this.unknownAfter = unknownAfter;
        this.board = board;
        this.writer = new BatchedWriter<>("table activity", board::apply, ActivityChange::then,
                BatchedWriter.Keeper.none(), null, Map.of(), ACTIVITY_RETRY_INTERVAL, clock);
        this.observers = Executors.newFixedThreadPool(parallelism, r -> {
            Thread thread = new Thread(r, "lakesync-status-observer");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Refreshes every {@code interval} in the background. */
    public synchronized void start(Duration interval) {
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "lakesync-status");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(this::refreshQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    public void subscribe(Consumer<List<TableStatus>> subscriber) {
        subscribers.add(subscriber);
    }

    /**
     * Re-reads every table from the cluster and derives its status; returns within about three call timeouts, and
     * two state database timeouts should that not answer.
     */
    public synchronized List<TableStatus> refresh() {
        Instant now = clock.instant();
        String listFailure = null;
        List<TablePath> listed;
        try {
            listed = observer.listTables(Deadline.in(callTimeout));
            flussProblem = problemCleared(flussProblem, "Fluss");
        } catch (Exception e) {
            listFailure = ErrorMessages.describe(e);
            flussProblem = problem(flussProblem, "Cannot reach Fluss", listFailure, now);
            listed = new ArrayList<>(paths.values());
        }
        String unobservable = listFailure;
        try {
            observer.probeLake(Deadline.in(callTimeout));
            lakeProblem = problemCleared(lakeProblem, "The lake");
        } catch (Exception e) {
            String lakeFailure = ErrorMessages.describe(e);
            lakeProblem = problem(lakeProblem, "Cannot reach the lake", lakeFailure, now);
            unobservable = unobservable != null ? unobservable : "the lake does not answer: " + lakeFailure;
        }
        Set<String> onBoard = new HashSet<>();
        boolean enabled = readState(onBoard, now);
        List<? extends Future<TableObservation>> observations =
                unobservable == null ? observer.observeAll(listed, activity, callTimeout, observers) : List.of();
        List<TableStatus> fresh = new ArrayList<>();
        for (int i = 0; i < listed.size(); i++) {
            TablePath path = listed.get(i);
            String name = path.toString();
            paths.put(name, path);
            TableStatus status;
            if (unobservable != null) {
                status = unobserved(path, unobservable, now);
            } else {
                try {
                    status = observed(path, awaitObservation(observations.get(i)), enabled);
                } catch (Exception e) {
                    LOG.debug("Could not observe table {}", path, e);
                    status = unobserved(path, ErrorMessages.describe(e), now);
                }
            }
            String stateNote = stateNote();
            if (stateNote != null) {
                status = status.withNote(stateNote);
            }
            publish(name, status, now);
            fresh.add(status);
        }
        if (listFailure == null) {
            Set<String> seen = new HashSet<>();
            listed.forEach(path -> seen.add(path.toString()));
            for (Map<String, ?> perTable : List.of(statuses, history, paths, observed, failingSince, pendingSince,
                    pendingAtSnapshot, activity)) {
                perTable.keySet().removeIf(name -> !seen.contains(name));
            }
            onBoard.removeAll(seen);
            if (!onBoard.isEmpty() && stateProblem == null) {
                try {
                    board.forget(onBoard, now);
                } catch (RuntimeException e) {
                    LOG.debug("Could not forget the activity of dropped tables {}", onBoard, e);
                }
            }
        }
        fresh.sort(Comparator.comparing(TableStatus::name));
        for (Consumer<List<TableStatus>> subscriber : subscribers) {
            try {
                subscriber.accept(fresh);
            } catch (RuntimeException e) {
                LOG.warn("A status subscriber failed: {}", e.toString());
            }
        }
        return fresh;
    }

    private static TableObservation awaitObservation(Future<TableObservation> observation) throws Exception {
        try {
            return observation.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /**
     * Reads what the state database holds for the status: the activity of every table from the board (with what
     * waits to be written to it), whose tables it adds to {@code onBoard}, and the service switch, which it returns.
     * A read that fails keeps what was read last (the activity this instance recorded meanwhile included), and
     * names no table.
     */
    private boolean readState(Set<String> onBoard, Instant now) {
        try {
            Map<String, EngineActivity> all = writer.readWithWaiting(board::all,
                    (stored, waiting) -> ActivityChange.applyAll(stored, waiting, board.self()));
            activity.putAll(all);
            lastSwitch = serviceEnabled.getAsBoolean();
            onBoard.addAll(all.keySet());
            stateProblem = problemCleared(stateProblem, "The state database");
        } catch (RuntimeException e) {
            stateProblem = problem(stateProblem, "State database unreachable", BatchedWriter.describe(e), now);
        }
        return lastSwitch;
    }

    /** What a table's reason adds while the state database is unreachable; null while it answers. */
    @Nullable
    private String stateNote() {
        String problem = stateProblem;
        return problem == null ? null : problem + " (showing the service switch as last read, "
                + (lastSwitch ? "on" : "off") + ", and the activity this instance knows)";
    }

    private TableStatus observed(TablePath path, TableObservation observation, boolean enabled) {
        String name = path.toString();
        if (failingSince.remove(name) != null) {
            LOG.info("Table {} can be observed again", name);
        }
        TableStatus status =
                TableStatusModel.derive(
                        observation,
                        activityOf(name),
                        enabled,
                        trackPendingSince(name, observation));
        String waitingForCu = heldBack.get(name);
        if (waitingForCu != null) {
            status = status.heldBack(waitingForCu);
        }
        observed.put(name, status);
        return status;
    }

    private TableStatus unobserved(TablePath path, String error, Instant now) {
        String name = path.toString();
        if (failingSince.putIfAbsent(name, now) == null) {
            LOG.warn("Cannot observe table {}: {}", name, error);
        }
        return TableStatusModel.unobserved(
                path, observed.get(name), activityOf(name), error,
                failingSince.get(name), now, unknownAfter);
    }

    private void publish(String name, TableStatus status, Instant now) {
        TableStatus previous = statuses.put(name, status);
        if (previous == null || previous.state() != status.state()) {
            LOG.info("Table {} is {}: {}", name, status.state(), status.reason());
        }
        Deque<HistoryPoint> points = history.computeIfAbsent(name, n -> new ArrayDeque<>());
        synchronized (points) {
            points.addLast(HistoryPoint.of(status, now));
            while (points.size() > historySize) {
                points.removeFirst();
            }
        }
    }

    private static String problem(@Nullable String current, String what, String error, Instant now) {
        if (current == null) {
            LOG.warn("{}: {}", what, error);
            return what + " since " + now + ": " + error;
        }
        return current;
    }

    @Nullable
    private static String problemCleared(@Nullable String current, String what) {
        if (current != null) {
            LOG.info("{} answers again", what);
        }
        return null;
    }

    /**
     * What keeps the status from being complete, for {@code /health}: Fluss or the lake not answering, and tables
     * in state UNKNOWN. Empty when every table was observed.
     */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (flussProblem != null) {
            problems.add(flussProblem);
        }
        if (lakeProblem != null) {
            problems.add(lakeProblem);
        }
        String stateNote = stateNote();
        if (stateNote != null) {
            problems.add(stateNote);
        }
        List<String> unknown = tables().stream()
                .filter(status -> status.state() == TableState.UNKNOWN)
                .map(TableStatus::name)
                .toList();
        if (!unknown.isEmpty()) {
            problems.add(unknown.size() + " table(s) UNKNOWN: " + String.join(", ", unknown));
        }
        return problems;
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            LOG.warn("Status refresh failed: {}", e.toString());
        }
    }


    @Nullable
    private Instant trackPendingSince(String name, TableObservation observation) {
        if (observation.pendingRecords() == 0) {
            pendingSince.remove(name);
            pendingAtSnapshot.remove(name);
            return null;
        }
        Long snapshot = observation.lakeSnapshotId();
        Long known = pendingAtSnapshot.get(name);
        if (!pendingSince.containsKey(name) || !java.util.Objects.equals(known, snapshot == null ? -1L : snapshot)) {
            pendingSince.put(name, observation.observedAt());
            pendingAtSnapshot.put(name, snapshot == null ? -1L : snapshot);
        }
        return pendingSince.get(name);
    }

    /** All tables, sorted by name, as of the last refresh. */
    public List<TableStatus> tables() {
        List<TableStatus> all = new ArrayList<>(statuses.values());
        all.sort(Comparator.comparing(TableStatus::name));
        return all;
    }

    public Optional<TableStatus> table(TablePath path) {
        return Optional.ofNullable(statuses.get(path.toString()));
    }

    public List<HistoryPoint> history(TablePath path) {
        Deque<HistoryPoint> points = history.get(path.toString());
        if (points == null) {
            return List.of();
        }
        synchronized (points) {
            return new ArrayList<>(points);
        }
    }

    @Override
    public void roundHeldBack(TableAssignment assignment, String reason) {
        heldBack.put(assignment.tablePath().toString(), reason);
    }

    @Override
    public void roundStarted(TableAssignment assignment) {
        heldBack.remove(assignment.tablePath().toString());
        record(assignment.tablePath().toString(), ActivityChange.started());
    }

    @Override
    public void roundFinished(RoundResult result) {
        record(result.assignment().tablePath().toString(), ActivityChange.succeeded(
                result.records(), result.bytesWritten(), result.filesWritten(), result.duration(), clock.instant()));
    }

    @Override
    public void roundFailed(TableAssignment assignment, Throwable cause, FailureKind kind, @Nullable Duration retryIn) {
        String name = assignment.tablePath().toString();
        if (kind == FailureKind.LOST) {
            heldBack.remove(name);
            record(name, ActivityChange.released());
            return;
        }
        String message = cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
        record(name, ActivityChange.failed(kind, message, retryIn == null ? null : clock.instant().plus(retryIn)));
    }

    /**
     * Applies an engine event to the table's activity as this instance knows it, at once, and hands it to the
     * writer for the board (the totals of every instance), where it is added in the background: the engine thread
     * that reports it never waits for the state database.
     */
    private void record(String table, ActivityChange change) {
        activity.compute(table, (k, known) -> change.applyTo(known == null ? EngineActivity.NONE : known, board.self()));
        writer.add(table, change);
    }

    /** Writes the activity that waits for the board now; returns whether nothing waits any more. */
    public boolean writeActivity() {
        return writer.flush();
    }

    @Override
    public void maintained(MaintenanceReport report) {
        maintenance.compute(report.tablePath().toString(),
                (k, last) -> (last == null ? EngineActivity.NONE : last).maintained(report));
    }

    /**
     * The table's activity from the board, with this instance's last maintenance pass: maintenance figures are
     * this instance's own (the board keeps round outcomes only).
     */
    private EngineActivity activityOf(String name) {
        EngineActivity rounds = activity.getOrDefault(name, EngineActivity.NONE);
        EngineActivity maintained = maintenance.get(name);
        return maintained == null ? rounds : rounds.withMaintenance(maintained.maintenance());
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        observers.shutdownNow();
        try {
            writer.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
