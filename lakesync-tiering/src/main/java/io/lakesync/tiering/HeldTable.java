package io.lakesync.tiering;

import io.lakesync.errors.ErrorMessages;
import io.lakesync.tiering.capacity.QuotaAdmission;
import io.lakesync.tiering.capacity.RoundMeter;
import io.lakesync.tiering.capacity.RoundUsage;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.tiering.round.FencedRoundException;
import io.lakesync.tiering.round.RoundControl;
import io.lakesync.tiering.round.RoundResult;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.RejectedExecutionException;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table this instance holds from the coordinator, from hand-out to hand-back. Every attempt of a round
 * starts through one path ({@code runNow}), the waits between attempts through another ({@code waitThenRun}),
 * and the table leaves through {@code release} exactly once.
 *
 * <pre>
 *  hand-out
 *     │
 *     ▼
 *   HELD ──(CU free)──► ROUND_RUNNING ──── success, busy, not the last round, ─────► CONTINUOUS_WAIT
 *                  ▲  ▲  ▲   │ │     under the max hold                              │
 *                  │  │  │   │ │                                                     │ half freshness
 *                  │  │  └───┼─┼─────────────────────────────────────────────────────┘ minus the round
 *                  │  │      │ └─ transient, bad record (fewer than N identical) ─► RETRY_WAIT
 *                  │  └──────┼──────────────────────── backoff (doubling, capped) ──────┘
 *                  │         └─── blocked, or N identical bad records ─────────────► BLOCKED
 *                  └─────────────────────────────────────── recheck interval ───────────┘
 *
 *   HELD, any wait ── no CU free under the quotas, ──► QUOTA_WAIT ── admitted ──► ROUND_RUNNING
 *                     or the shared claim on its way
 *   ROUND_RUNNING ── success, not kept ─────────────────────────────► RELEASED (reported finished)
 *   CONTINUOUS_WAIT ── a heartbeat since the round got another table ► RELEASED (reported finished)
 *   ROUND_RUNNING ── table lost, taken back or shutting down ───────► RELEASED (reported failed)
 *   HELD, any wait ── taken back, shutting down, no thread to run on ► RELEASED (reported failed)
 * </pre>
 *
 * Whether another table waits is known only from a heartbeat that asked the coordinator for one, so it is
 * judged after the round, not when it ends: the continuous wait frees this table's worker and wakes the
 * assigner, whose heartbeat asks for a table; when it is answered with one, the waiting table goes back at once
 * (or, if no such heartbeat came before the wait ended, its next round is the last of the hand-out). Judged at
 * the round's end, a table handed out earlier, while all workers were busy, still counted as waiting and sent
 * busy tables back for a full freshness.
 *
 * <p>A waiting table holds no worker, so failing tables never crowd out healthy ones, and it stays with this
 * instance (its heartbeats go on), so the coordinator does not hand it round in a loop. The listener hears of
 * every attempt ({@code roundStarted}) and how it ended, of a wait for a CU ({@code roundHeldBack}), and of
 * what each attempt used ({@code roundMeasured}).
 */
final class HeldTable {

    private static final Logger LOG = LoggerFactory.getLogger(HeldTable.class);
    /** Where a held table is in its lifecycle; see the class comment. */
    enum State {
        HELD,
        ROUND_RUNNING,
        QUOTA_WAIT,
        RETRY_WAIT,
        BLOCKED,
        CONTINUOUS_WAIT,
        RELEASED
    }

    private final HeldTableContext context;
    private final TableAssignment assignment;
    private final RoundControl control;
    private final FailureStreak failures;
    private final ContinuousHold continuous;
    private final Instant heldSince;
    @Nullable private volatile Instant lastRecordsAt;

    private State state = State.HELD;
    @Nullable private EngineScheduler.Cancellable pendingAttempt;
    /** The CU claim of the attempt that runs or waits to run; null between attempts. */
    @Nullable private QuotaAdmission.Ticket ticket;
    /** Heartbeats that had asked for a table when the current continuous wait began. */
    private long tableRequestsAtWait;
    /** Another table was waiting when this round began: it is the last of the hand-out. */
    private boolean lastRound;
    /** Whether the round before the current continuous wait was force-finished, as the hand-back reports it. */
    private boolean waitFollowsForceFinish;

    HeldTable(HeldTableContext context, TableAssignment assignment) {
        this.context = context;
        this.assignment = assignment;
        EngineSettings settings = context.settings();
        this.control = new RoundControl(context.clock(), settings.idleReadTimeout());
        this.failures = new FailureStreak(settings.backoff(), settings.blockedRecheck());
        this.continuous = new ContinuousHold(settings.continuous(), settings.continuousMaxHold());
        this.heldSince = context.clock().instant();
    }

    TableAssignment assignment() {
        return assignment;
    }

    synchronized State state() {
        return state;
    }

    /** Starts the first round: {@code HELD → ROUND_RUNNING}. */
    void start() {
        runNow();
    }

    /**
     * The coordinator no longer gives this table to this instance, or the engine stops: a running round is
     * cancelled (it hands the table back when it ends, never committing), a waiting table goes back now.
     */
    synchronized void takeBack(String reason) {
        control.cancel(reason);
        if (state != State.ROUND_RUNNING) {
            giveUp(new FencedRoundException(reason));
        }
    }

    /** The single path by which an attempt starts, at once or when its wait is over: first it asks for a CU. */
    private void runNow() {
        QuotaAdmission.Ticket claim;
        String heldBack;
        synchronized (this) {
            if (state == State.RELEASED) {
                return;
            }
            if (!context.assigner().isRunning() || control.isCancelled()) {
                giveUp(cancellation());
                return;
            }
            if (state == State.CONTINUOUS_WAIT) {
                lastRound = context.assigner().otherTablesWaiting() && context.assigner().tableRequests() > tableRequestsAtWait;
            }
            pendingAttempt = null;
            claim = context.admission().request(assignment.tablePath(), this::admittedLater, this::heldBackLater);
            ticket = claim;
            state = claim.admitted() ? State.ROUND_RUNNING : State.QUOTA_WAIT;
            heldBack = claim.heldBackReason();
        }
        if (claim.admitted()) {
            startRound();
        } else if (heldBack != null) {
            context.listener().roundHeldBack(assignment, heldBack);
        }
    }

    /**
     * The claim of the waiting attempt was refused after the request returned (the shared ledger answers on a
     * thread of its own): the listener hears why the round waits.
     */
    private void heldBackLater(String reason) {
        synchronized (this) {
            if (state != State.QUOTA_WAIT) {
                return;
            }
        }
        context.listener().roundHeldBack(assignment, reason);
    }

    /**
     * A heartbeat that asked for a table since this table's continuous wait began was answered with one: another
     * table was waiting, so this one goes back now instead of after one more round.
     */
    synchronized void anotherTableWaits() {
        if (state == State.CONTINUOUS_WAIT && context.assigner().tableRequests() > tableRequestsAtWait) {
            release(false, waitFollowsForceFinish);
        }
    }

    /** A CU freed for the waiting attempt: start it from the timer thread, so no lock of the freeing table is held. */
    private void admittedLater() {
        try {
            context.scheduler().schedule(this::startAdmitted, Duration.ZERO);
        } catch (RejectedExecutionException e) {
            // Only while shutting down: the shutdown takes the table back, which frees its CU.
            LOG.debug("Admitted round of {} not started: shutting down", assignment);
        }
    }

    private void startAdmitted() {
        synchronized (this) {
            if (state != State.QUOTA_WAIT) {
                return;
            }
            state = State.ROUND_RUNNING;
        }
        startRound();
    }

    private void startRound() {
        try {
            context.listener().roundStarted(assignment);
            context.scheduler().runRound(this::attempt);
        } catch (RuntimeException e) {
            // No thread to run on (RejectedExecutionException), or a listener broke its contract.
            synchronized (this) {
                giveUp(new FencedRoundException("its round could not be started: " + ErrorMessages.describe(e), e));
            }
        }
    }

    private void attempt() {
        try {
            RoundResult result;
            RoundMeter meter = RoundMeter.start();
            Instant startedAt = context.clock().instant();
            try {
                result = context.rounds().run(assignment, control);
            } catch (Throwable failure) {
                measured(meter, startedAt, null);
                failed(failure);
                return;
            }
            measured(meter, startedAt, result);
            succeeded(result);
        } catch (RuntimeException e) {
            // Only a bug of the engine or a listener lands here; the table must not stay held with nothing running.
            LOG.error("Handing table {} back after an unexpected engine error", assignment, e);
            synchronized (this) {
                giveUp(new FencedRoundException("unexpected engine error", e));
            }
        }
    }

    /** The attempt ended: its CU frees and the listener hears what it used. */
    private void measured(RoundMeter meter, Instant startedAt, @Nullable RoundResult result) {
        meter.stop();
        // The instance's live heap, shared by the rounds running now (this one among them).
        long heapShare = RoundMeter.liveHeapBytes() / Math.max(1, context.admission().runningCu());
        closeTicket();
        context.listener().roundMeasured(new RoundUsage(
                assignment,
                context.clock().instant(),
                Duration.between(startedAt, context.clock().instant()),
                meter.cpuNanos(),
                meter.allocatedBytes(),
                heapShare,
                result == null ? 0 : result.records(),
                result == null ? 0 : result.bytesWritten()));
    }

    private void closeTicket() {
        QuotaAdmission.Ticket claim;
        synchronized (this) {
            claim = ticket;
            ticket = null;
        }
        if (claim != null) {
            claim.close();
        }
    }

    private void succeeded(RoundResult result) {
        logFinished(result);
        context.listener().roundFinished(result);
        synchronized (this) {
            int failedBefore = failures.succeeded();
            if (failedBefore > 0) {
                LOG.info("Table {} recovered after {} failed round(s)", assignment.tablePath(), failedBefore);
            }
            Duration pause = continuousPause(result);
            if (pause == null) {
                release(false, result.forceFinished());
            } else {
                tableRequestsAtWait = context.assigner().tableRequests();
                waitFollowsForceFinish = result.forceFinished();
                waitThenRun(State.CONTINUOUS_WAIT, pause);
                context.assigner().workerFreed();
            }
        }
    }

    private void failed(Throwable failure) {
        FailureKind kind = context.classifier().apply(failure);
        String reason = ErrorMessages.describe(failure);
        if (kind == FailureKind.LOST || !context.assigner().isRunning() || control.isCancelled()) {
            synchronized (this) {
                giveUp(failure);
            }
            return;
        }
        FailureStreak.Next next;
        synchronized (this) {
            next = failures.failed(kind, reason);
            if (next.news()) {
                logFailure(next.reported(), next.retryIn(), reason);
                LOG.debug("Round failure of {}", assignment, failure);
            }
        }
        // Told before the next attempt can start, so a listener never sees the retry before the failure.
        context.listener().roundFailed(assignment, failure, next.reported(), next.retryIn());
        synchronized (this) {
            waitThenRun(next.reported() == FailureKind.BLOCKED ? State.BLOCKED : State.RETRY_WAIT, next.retryIn());
        }
    }

    /** The single path by which a table waits for its next attempt. Called holding the lock. */
    private void waitThenRun(State waiting, Duration wait) {
        if (!context.assigner().isRunning() || control.isCancelled()) {
            giveUp(cancellation());
            return;
        }
        state = waiting;
        try {
            pendingAttempt = context.scheduler().schedule(this::runNow, wait);
        } catch (RejectedExecutionException e) {
            giveUp(new FencedRoundException("no timer to wait on", e));
        }
    }

    /** How long to pause before the next round of the same hand-out, or null to hand the table back. */
    @Nullable
    private Duration continuousPause(RoundResult result) {
        Instant now = context.clock().instant();
        if (result.records() > 0) {
            lastRecordsAt = now;
        }
        if (!context.assigner().isRunning() || control.isCancelled()) {
            return null;
        }
        return continuous.pause(new ContinuousHold.Round(control.maxDuration(), heldSince, lastRecordsAt, now,
                lastRound, result.forceFinished(), result.duration()));
    }

    /** Hands the table back as failed, telling the listener it is lost to this instance. Called holding the lock. */
    private void giveUp(Throwable why) {
        if (state == State.RELEASED) {
            return;
        }
        LOG.info("Gave up table {}: {}", assignment, ErrorMessages.describe(why));
        try {
            context.listener().roundFailed(assignment, why, FailureKind.LOST, null);
        } finally {
            release(true, false);
        }
    }

    /** Why the table cannot go on: the reason it was cancelled with, or the engine stopping. */
    private FencedRoundException cancellation() {
        try {
            control.throwIfCancelled();
        } catch (FencedRoundException e) {
            return e;
        }
        return new FencedRoundException("lakesync is shutting down");
    }

    /** Hands the table back exactly once: it is reported with the next heartbeat. Called holding the lock. */
    private void release(boolean failed, boolean forceFinished) {
        if (state == State.RELEASED) {
            return;
        }
        state = State.RELEASED;
        if (ticket != null) {
            ticket.close();
            ticket = null;
        }
        if (pendingAttempt != null) {
            pendingAttempt.cancel();
            pendingAttempt = null;
        }
        context.assigner().released(this, failed, forceFinished);
    }

    private void logFailure(FailureKind kind, Duration wait, String reason) {
        if (kind == FailureKind.BLOCKED) {
            LOG.warn("Table {} is blocked, checking again every {} s: {}", assignment.tablePath(), wait.toSeconds(), reason);
        } else {
            LOG.warn("Round of table {} failed ({}), retrying in {} ms: {}", assignment.tablePath(), kind, wait.toMillis(), reason);
        }
    }

    private static void logFinished(RoundResult result) {
        if (result.committed()) {
            LOG.info(
                    "Table {}: tiered {} records into lake snapshot {} in {} ms{} ({})",
                    result.assignment().tablePath(),
                    result.records(),
                    result.lakeSnapshotId(),
                    result.duration().toMillis(),
                    result.forceFinished() ? " (freshness reached, continuing)" : "",
                    result.phases());
        } else {
            LOG.debug("Table {}: nothing new to tier", result.assignment().tablePath());
        }
    }
}
