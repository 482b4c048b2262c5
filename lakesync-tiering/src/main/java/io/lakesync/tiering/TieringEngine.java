package io.lakesync.tiering;

import io.lakesync.errors.ErrorMessages;
import io.lakesync.tiering.capacity.QuotaAdmission;
import io.lakesync.fluss.tiering.HeartbeatRequest;
import io.lakesync.fluss.tiering.HeartbeatResponse;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.fluss.tiering.TableEpoch;
import io.lakesync.fluss.tiering.TieringCoordinator;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.fluss.exception.ApiException;
import org.apache.fluss.exception.InvalidCoordinatorException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's side of the coordinator's lake-tiering protocol: registers, heartbeats, takes the tables it is
 * handed and keeps each as a {@link HeldTable}, reports how their rounds ended, and hands them all back on
 * shutdown. One thread calls {@link #step()} in a loop; rounds and waits run on the {@link EngineScheduler}.
 *
 * <pre>
 *            register (empty heartbeat → coordinator epoch; hand back what a crashed run held)
 *                 │
 *                 ▼
 *   ┌──► heartbeat: tables held · finished (+force-finished) · failed · "one more?" ──────────┐
 *   │                                                                                         │
 *   │   per-table error (fenced epoch, table gone) → take that table back, never commit       │
 *   │   InvalidCoordinator → take the new coordinator epoch                                   │
 *   │   table handed out → hold it, start its round; ask again at once while capacity left    │
 *   │   anything thrown → logged once per change, the loop goes on                            │
 *   └──────────────────────────── wait the poll interval, or until a round ends ◄─────────────┘
 * </pre>
 *
 * The engine is healthy while heartbeats succeed; once none has for longer than the coordinator's tiering
 * timeout, the coordinator has handed its tables to others, and {@link #health()} says so.
 */
final class TieringEngine {

    private static final Logger LOG = LoggerFactory.getLogger(TieringEngine.class);
    /** The least wait between two passes of the assigner after one failed. */
    static final Duration FAULT_RETRY = Duration.ofSeconds(1);

    private final TieringCoordinator coordinator;
    private final EngineScheduler scheduler;
    private final InFlightJournal journal;
    private final EngineSettings settings;
    private final Clock clock;
    private final Instant startedAt;
    private final HeldTableContext tableContext;
    private final Map<Long, HeldTable> held = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Report> reports = new ConcurrentLinkedQueue<>();
    private final Object wakeUp = new Object();

    private volatile boolean running = true;
    private volatile boolean registered;
    private volatile int coordinatorEpoch;
    private volatile boolean otherTablesWaiting;
    /** Heartbeats so far that asked the coordinator for a table: tells a held table the flag above is fresh. */
    private final AtomicLong tableRequests = new AtomicLong();
    @Nullable private volatile Instant lastHeartbeat;
    /** The last failure of the loop (heartbeat or otherwise), null while all is well; logged once per change. */
    @Nullable private volatile String loopFault;
    @Nullable private String journalFault;

    TieringEngine(
            TieringCoordinator coordinator,
            RoundRunner rounds,
            Function<Throwable, FailureKind> classifier,
            EngineScheduler scheduler,
            InFlightJournal journal,
            TieringListener listener,
            EngineSettings settings,
            QuotaAdmission admission,
            Clock clock) {
        this.coordinator = coordinator;
        this.scheduler = scheduler;
        this.journal = journal;
        this.settings = settings;
        this.clock = clock;
        this.startedAt = clock.instant();
        this.tableContext = new HeldTableContext(
                clock, settings, scheduler, rounds, classifier, listener, admission, new HoldSide());
    }

    /**
     * One pass of the assigner loop: registers if not yet done, then heartbeats. Never throws: whatever goes
     * wrong is logged (once per change) and the next pass tries again. Returns whether to go on at once (a
     * table was just handed out and there is room for another).
     */
    boolean step() {
        if (!running) {
            return false;
        }
        try {
            if (!registered && !register()) {
                return false;
            }
            boolean tookTable = heartbeat();
            return tookTable && running && busyTables() < settings.workers();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            fault("The tiering assigner failed, trying again in " + faultRetry().toMillis() + " ms", e);
        }
        return false;
    }

    /**
     * How long the assigner waits for work before its next pass: the poll interval, or while the last pass failed
     * at least {@link #FAULT_RETRY}, so that a coordinator that is down is not asked several times a second.
     */
    Duration idleWait() {
        return loopFault != null ? faultRetry() : settings.pollInterval();
    }

    private Duration faultRetry() {
        return settings.pollInterval().compareTo(FAULT_RETRY) < 0 ? FAULT_RETRY : settings.pollInterval();
    }

    /**
     * Whether the assigner passes again at once: a round's outcome is still to be reported and the last pass
     * reached the coordinator. After a failed pass the outcomes wait with it ({@link #idleWait}), or the
     * assigner would ask a coordinator that is down again and again without a pause.
     */
    boolean reportWaiting() {
        return !reports.isEmpty() && loopFault == null;
    }

    /** Waits up to {@code timeout} for work: a round that ended, or shutdown. */
    void awaitWork(Duration timeout) throws InterruptedException {
        synchronized (wakeUp) {
            if (!reportWaiting() && running) {
                wakeUp.wait(Math.max(1, timeout.toMillis()));
            }
        }
    }

    /** Healthy while heartbeats reach the coordinator, at most its tiering timeout apart. */
    EngineHealth health() {
        Instant last = lastHeartbeat;
        Duration silent = Duration.between(last != null ? last : startedAt, clock.instant());
        if (!running || silent.compareTo(settings.coordinatorTimeout()) <= 0) {
            return new EngineHealth(true, null, last);
        }
        String fault = loopFault;
        return new EngineHealth(
                false,
                (last == null ? "No heartbeat has reached the Fluss coordinator in the " : "No heartbeat has reached the Fluss coordinator for the last ")
                        + silent.toSeconds() + " s, longer than its tiering timeout of "
                        + settings.coordinatorTimeout().toSeconds() + " s, so it hands this instance's tables to other "
                        + "tiering services; last error: " + (fault != null ? fault : "none (the heartbeat has not returned)") + ".",
                last);
    }

    Set<TableAssignment> activeTables() {
        Set<TableAssignment> tables = new HashSet<>();
        held.values().forEach(t -> tables.add(t.assignment()));
        return tables;
    }

    int coordinatorEpoch() {
        return coordinatorEpoch;
    }

    /**
     * Stops taking tables, cancels every round (a round already committing finishes its commit), waits up to
     * {@code grace} for them, and hands every table not finished back as failed, so the coordinator hands it
     * out again at once.
     */
    void shutdown(Duration grace) throws InterruptedException {
        try {
            handBack(grace);
        } finally {
            journal.close();
        }
    }

    private void handBack(Duration grace) throws InterruptedException {
        stop();
        held.values().forEach(t -> t.takeBack("lakesync is shutting down"));
        scheduler.shutdown(grace);
        List<Report> last = drainReports();
        Set<Long> reported = new HashSet<>();
        last.forEach(r -> reported.add(r.table.tableId()));
        held.values().stream()
                .filter(t -> !reported.contains(t.assignment().tableId()))
                .forEach(t -> last.add(new Report(t.assignment().epoch(), true, false)));
        if (last.isEmpty()) {
            return;
        }
        try {
            coordinator.heartbeat(request(List.of(), last, false), coordinatorEpoch);
            journalWrite("clear", journal::clear);
        } catch (Exception e) {
            LOG.warn("Could not hand tables back to the coordinator on shutdown ({}); it will after its timeout", ErrorMessages.describe(e));
        }
    }

    /** Stops taking tables and ends the assigner loop; {@link #shutdown} then hands the held ones back. */
    void stop() {
        running = false;
        wake();
    }

    boolean isRunning() {
        return running;
    }

    /** The engine's side of a hold, as {@link HeldTable} sees it. */
    private final class HoldSide implements HeldTableContext.Assigner {
        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public boolean otherTablesWaiting() {
            return otherTablesWaiting;
        }

        @Override
        public long tableRequests() {
            return tableRequests.get();
        }

        @Override
        public void workerFreed() {
            wake();
        }

        /** Only removes the table's own hold, never a newer one. */
        @Override
        public void released(HeldTable table, boolean failed, boolean forceFinished) {
            held.remove(table.assignment().tableId(), table);
            reports.add(new Report(table.assignment().epoch(), failed, forceFinished));
            wake();
        }
    }

    // --- the protocol

    /** Registers and hands back what a crashed run held; returns whether it succeeded. */
    private boolean register() throws InterruptedException {
        try {
            coordinatorEpoch =
                    coordinator.heartbeat(HeartbeatRequest.registration(), coordinatorEpoch).coordinatorEpoch();
            heartbeatSucceeded();
            LOG.info("Registered with the Fluss coordinator as a tiering service (coordinator epoch {})", coordinatorEpoch);
            for (InFlightJournal.Entry entry : leftOverTables()) {
                // Tables held by a previous run that crashed: give them back now rather than after the
                // coordinator's 2-minute timeout.
                LOG.info("Returning table id {} held by a previous run", entry.table().tableId());
                coordinator.heartbeat(
                        new HeartbeatRequest(List.of(), List.of(), Set.of(), List.of(entry.table()), false),
                        entry.coordinatorEpoch());
            }
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            unreachable(e);
            return false;
        }
        journalWrite("clear", journal::clear);
        registered = true;
        return true;
    }

    private List<InFlightJournal.Entry> leftOverTables() {
        try {
            return journal.recover();
        } catch (Exception e) {
            LOG.warn("Cannot read the in-flight journal ({}); tables a crashed run held come back after the coordinator's timeout", ErrorMessages.describe(e));
            return List.of();
        }
    }

    /** One heartbeat; returns whether it brought a new table. */
    private boolean heartbeat() {
        List<Report> sent = drainReports();
        List<TableEpoch> inProgress = new ArrayList<>();
        held.values().forEach(t -> inProgress.add(t.assignment().epoch()));
        boolean capacity = busyTables() < settings.workers();
        HeartbeatResponse response;
        try {
            response = coordinator.heartbeat(request(inProgress, sent, capacity), coordinatorEpoch);
        } catch (InterruptedException e) {
            // Shutting down: the reports go with the last heartbeat instead.
            reports.addAll(sent);
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            reports.addAll(sent);
            unreachable(e);
            return false;
        }
        heartbeatSucceeded();
        if (response.coordinatorEpoch() != coordinatorEpoch) {
            LOG.info("Fluss coordinator changed (epoch {} -> {})", coordinatorEpoch, response.coordinatorEpoch());
            coordinatorEpoch = response.coordinatorEpoch();
        }
        for (TableEpoch table : inProgress) {
            Optional<ApiException> error = response.errorFor(table.tableId());
            HeldTable holding = held.get(table.tableId());
            if (error.isPresent() && holding != null && holding.assignment().tieringEpoch() == table.tieringEpoch()) {
                String why = error.get() instanceof InvalidCoordinatorException
                        ? "the Fluss coordinator changed"
                        : error.get().getMessage();
                holding.takeBack("The coordinator took back " + holding.assignment() + ": " + why);
            }
        }
        if (capacity) {
            // The only view of the coordinator's queue a tiering service gets: was a table waiting while this
            // instance already held some? Then held tables go back after their current round.
            otherTablesWaiting = response.assigned().isPresent() && !inProgress.isEmpty();
            tableRequests.incrementAndGet();
            if (otherTablesWaiting) {
                List.copyOf(held.values()).forEach(HeldTable::anotherTableWaits);
            }
        }
        @Nullable TableAssignment assigned = response.assigned().orElse(null);
        if (assigned != null && !running) {
            // Handed out while shutting down: straight back.
            reports.add(new Report(assigned.epoch(), true, false));
            assigned = null;
        }
        List<TableEpoch> released = sent.stream().map(Report::table).toList();
        TableEpoch taken = assigned == null ? null : assigned.epoch();
        int epoch = coordinatorEpoch;
        journalWrite("update", () -> journal.update(released, taken, epoch));
        if (assigned == null) {
            return false;
        }
        take(assigned);
        return true;
    }

    private void take(TableAssignment assignment) {
        HeldTable table = new HeldTable(tableContext, assignment);
        held.put(assignment.tableId(), table);
        LOG.info("Took table {} from the coordinator", assignment);
        table.start();
    }

    /** Tables running a round or waiting for a CU to run one: each takes a worker's place. */
    private long busyTables() {
        return held.values().stream()
                .filter(t -> t.state() == HeldTable.State.ROUND_RUNNING || t.state() == HeldTable.State.QUOTA_WAIT)
                .count();
    }

    private static HeartbeatRequest request(List<TableEpoch> inProgress, List<Report> reports, boolean requestTable) {
        List<TableEpoch> finished = new ArrayList<>();
        Set<Long> forceFinished = new HashSet<>();
        List<TableEpoch> failed = new ArrayList<>();
        for (Report r : reports) {
            (r.failed ? failed : finished).add(r.table);
            if (r.forceFinished) {
                forceFinished.add(r.table.tableId());
            }
        }
        return new HeartbeatRequest(inProgress, finished, forceFinished, failed, requestTable);
    }

    private List<Report> drainReports() {
        List<Report> drained = new ArrayList<>();
        Report report;
        while ((report = reports.poll()) != null) {
            drained.add(report);
        }
        return drained;
    }

    private void heartbeatSucceeded() {
        lastHeartbeat = clock.instant();
        if (loopFault != null) {
            loopFault = null;
            LOG.info("Heartbeats reach the Fluss coordinator again");
        }
    }

    private void unreachable(Exception e) {
        fault("Fluss coordinator unreachable, retrying every " + faultRetry().toMillis() + " ms", e);
    }

    private void fault(String what, Throwable e) {
        String fault = what + ": " + ErrorMessages.describe(e);
        if (!fault.equals(loopFault)) {
            loopFault = fault;
            LOG.warn(fault);
            LOG.debug("Tiering assigner failure", e);
        }
    }

    /**
     * The journal only speeds up recovery after a crash, so a write that fails (a full disk) is logged, once
     * per change, and the table is synced all the same.
     */
    private synchronized void journalWrite(String what, Runnable write) {
        try {
            write.run();
            if (journalFault != null) {
                journalFault = null;
                LOG.info("The in-flight journal can be written again");
            }
        } catch (RuntimeException e) {
            String fault = ErrorMessages.describe(e);
            if (!fault.equals(journalFault)) {
                journalFault = fault;
                LOG.warn("Cannot {} the in-flight journal ({}); syncing on, but after a crash the tables held now "
                        + "come back only after the coordinator's timeout", what, fault);
            }
        }
    }

    private void wake() {
        synchronized (wakeUp) {
            wakeUp.notifyAll();
        }
    }

    /** A round outcome still to be reported to the coordinator. */
    private record Report(TableEpoch table, boolean failed, boolean forceFinished) {}
}
