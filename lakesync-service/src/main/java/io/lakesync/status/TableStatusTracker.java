package io.lakesync.status;

import io.lakesync.tiering.FailureKind;
import io.lakesync.tiering.TieringListener;
import io.lakesync.tiering.coordinator.TableAssignment;
import io.lakesync.tiering.round.RoundResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
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
 */
public final class TableStatusTracker implements TieringListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TableStatusTracker.class);

    private final ClusterObserver observer;
    private final Clock clock;
    private final BooleanSupplier serviceEnabled;
    private final int historySize;
    private final Map<String, EngineActivity> activity = new ConcurrentHashMap<>();
    private final Map<String, TableStatus> statuses = new ConcurrentHashMap<>();
    private final Map<String, Deque<HistoryPoint>> history = new ConcurrentHashMap<>();
    private final Map<String, Instant> pendingSince = new HashMap<>();
    private final Map<String, Long> pendingAtSnapshot = new HashMap<>();
    private final List<Consumer<List<TableStatus>>> subscribers = new CopyOnWriteArrayList<>();
    private ScheduledExecutorService scheduler;

    public TableStatusTracker(ClusterObserver observer, Clock clock, BooleanSupplier serviceEnabled, int historySize) {
        this.observer = observer;
        this.clock = clock;
        this.serviceEnabled = serviceEnabled;
        this.historySize = historySize;
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

    /** Re-reads every table from the cluster and derives its status. */
    public synchronized List<TableStatus> refresh() throws Exception {
        List<TableStatus> fresh = new ArrayList<>();
        Map<String, Boolean> seen = new HashMap<>();
        for (TablePath path : observer.listTables()) {
            TableObservation observation;
            try {
                observation = observer.observe(path);
            } catch (Exception e) {
                LOG.debug("Could not observe table {}", path, e);
                continue;
            }
            String name = path.toString();
            seen.put(name, true);
            TableStatus status =
                    TableStatusModel.derive(
                            observation,
                            activity.getOrDefault(name, EngineActivity.NONE),
                            serviceEnabled.getAsBoolean(),
                            trackPendingSince(name, observation));
            TableStatus previous = statuses.put(name, status);
            if (previous == null || previous.state() != status.state()) {
                LOG.info("Table {} is {}: {}", name, status.state(), status.reason());
            }
            Deque<HistoryPoint> points = history.computeIfAbsent(name, n -> new ArrayDeque<>());
            synchronized (points) {
                points.addLast(HistoryPoint.of(status));
                while (points.size() > historySize) {
                    points.removeFirst();
                }
            }
            fresh.add(status);
        }
        statuses.keySet().removeIf(name -> !seen.containsKey(name));
        history.keySet().removeIf(name -> !seen.containsKey(name));
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

    private void refreshQuietly() {
        try {
            refresh();
        } catch (Exception e) {
            LOG.debug("Status refresh failed", e);
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
    public void roundStarted(TableAssignment assignment) {
        activity.compute(assignment.tablePath().toString(), (k, a) -> (a == null ? EngineActivity.NONE : a).started());
    }

    @Override
    public void roundFinished(RoundResult result) {
        activity.compute(
                result.assignment().tablePath().toString(),
                (k, a) -> (a == null ? EngineActivity.NONE : a)
                        .succeeded(result.records(), result.bytesWritten(), result.filesWritten(), result.duration(), clock.instant()));
    }

    @Override
    public void roundFailed(TableAssignment assignment, Throwable cause, FailureKind kind, @Nullable Duration retryIn) {
        String name = assignment.tablePath().toString();
        if (kind == FailureKind.LOST) {
            activity.computeIfPresent(name, (k, a) -> a.released());
            return;
        }
        String message = cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
        activity.compute(
                name,
                (k, a) -> (a == null ? EngineActivity.NONE : a)
                        .failed(kind, message, retryIn == null ? null : clock.instant().plus(retryIn)));
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
