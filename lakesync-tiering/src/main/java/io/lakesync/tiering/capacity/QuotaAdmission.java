package io.lakesync.tiering.capacity;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.apache.fluss.metadata.TablePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which held table may start a round now, so the rounds of all instances together never use more
 * compute units than the {@link CapacityQuotas} allow. Every round attempt asks for a {@link Ticket}; the
 * tickets of this instance form one line, and in line order each claims a CU in the {@link ClaimLedger}: it is
 * admitted once its claim is granted, otherwise it waits with the reason.
 *
 * <pre>
 *   request ──► first in line that fits, claim granted ──► ADMITTED ──► close (round ended) ──► CLOSED
 *      │                                                      ▲           (its claim released)
 *      └──► WAITING (reason) ── a CU frees, or the retry ─────┘ (whenAdmitted runs)
 *               │               interval passed: claimed again
 *               └──────── close (table given back) ───────────────────────────────────────► CLOSED
 * </pre>
 *
 * Taking turns: the line is first come, first served, and a table asks again for every round, so a table that
 * just ran queues behind those that waited; within a quota the tables take turns and none starves. A waiter
 * whose database is full does not hold up the tables of other databases behind it.
 *
 * <p>A ledger that {@link ClaimLedger#answersAtOnce() answers at once} (the single instance's, in memory) is asked
 * on the calling thread, and a ticket that fits is admitted before {@link #request} returns. Any other ledger (the
 * state database that instances share) is asked on a thread of this admission's own, so no engine thread ever
 * waits for the database: a ticket waits until its claim is granted, and the waiting tickets claim again every
 * {@code retryInterval}, as CUs other instances free are seen only then. Releases go the same way; one that
 * fails is tried again with the next claims.
 *
 * <p>While the ledger is {@link ClaimLedger.Unreachable unreachable}, this instance goes on alone under the
 * fair-share rule: it admits a round only while its own running rounds stay within its fair share of each quota,
 * the quota divided by the live instances as last seen (rounded down, at least 1 CU), and records no claim for
 * it. Rounds that held a claim keep it until the ledger answers again. Once it does, the rounds admitted on the
 * fair share claim their CUs first, and no new round starts here until each has claimed or ended. If every
 * instance loses the ledger, the cluster stays within its quotas; if only some do, the others may use the CUs the
 * cut-off ones had claimed once those are reclaimed, so the cluster may run up to the cut-off instances' fair
 * shares beyond the quotas until they have caught up.
 */
public final class QuotaAdmission implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(QuotaAdmission.class);
    /** How long {@link #close} waits for the last releases to reach the ledger. */
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(10);
    /** The claim id of a round admitted under the fair-share rule, which no ledger gave out. */
    private static final long UNRECORDED = 0;
    private static final String CATCHING_UP = "Held back until the rounds this instance started on its fair share, "
            + "while the shared state did not answer, have claimed their CUs in it or ended.";

    private final CapacityQuotas quotas;
    private final ClaimLedger ledger;
    private final Duration retryInterval;
    /** Asks a ledger that does not answer at once; null for one that does. */
    @Nullable private final ScheduledExecutorService claimer;
    /** One pass over the line at a time, so the line's order is the order of the claims. */
    private final Object passing = new Object();
    private final AtomicBoolean passQueued = new AtomicBoolean();
    private final AtomicBoolean retryQueued = new AtomicBoolean();
    private final Set<Ticket> waiting = new LinkedHashSet<>();
    /** This instance's admitted rounds, in all and per database; guarded by this. */
    private final Map<String, Integer> runningPerDatabase = new HashMap<>();
    private int running;
    /** Admitted rounds without a claim, admitted on the fair share while the ledger was unreachable; guarded by this. */
    private final Set<Ticket> onFairShare = new LinkedHashSet<>();
    /** Claims whose rounds ended, to free in the ledger; guarded by this. */
    private final Deque<Long> unreleased = new ArrayDeque<>();
    /** Whether the last call to the ledger failed; read and written by the passes only. */
    private boolean ledgerDown;

    /** An admission of a single instance: its own rounds are all there are. */
    public QuotaAdmission(CapacityQuotas quotas) {
        this(quotas, new LocalClaimLedger(), Duration.ZERO);
    }

    /**
     * An admission that claims each round's CU in {@code ledger}; if it does not answer at once, waiting tickets
     * claim again every {@code retryInterval}.
     */
    public QuotaAdmission(CapacityQuotas quotas, ClaimLedger ledger, Duration retryInterval) {
        this.quotas = quotas;
        this.ledger = ledger;
        this.retryInterval = retryInterval;
        this.claimer = ledger.answersAtOnce() ? null : Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "lakesync-cu-claims");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Asks to start a round of {@code table}. The ticket is admitted at once or waits; a waiting ticket runs
     * {@code whenAdmitted} once it is admitted, and {@code whenHeldBack} with the reason if it had none when
     * {@link #request} returned (both on the thread that decided). Close the ticket when the round ends or the
     * table leaves, whichever state it is in.
     */
    public Ticket request(TablePath table, Runnable whenAdmitted, Consumer<String> whenHeldBack) {
        Ticket ticket = new Ticket(table, whenAdmitted, whenHeldBack);
        if (claimer == null) {
            // Joins the line inside the pass, so no other pass tells it of a reason it is about to get itself.
            synchronized (passing) {
                join(ticket);
                passOverTheLine(ticket);
            }
        } else {
            join(ticket);
            queuePass();
        }
        return ticket;
    }

    private synchronized void join(Ticket ticket) {
        waiting.add(ticket);
    }

    /** CUs this instance's running rounds use now. */
    public synchronized int runningCu() {
        return running;
    }

    /** Frees the last claims in the ledger (waiting a bounded time) and stops asking it. */
    @Override
    public void close() throws InterruptedException {
        if (claimer == null || claimer.isShutdown()) {
            return;
        }
        claimer.execute(this::releaseEnded);
        claimer.shutdown();
        if (!claimer.awaitTermination(CLOSE_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
            claimer.shutdownNow();
        }
    }

    private void close(Ticket ticket) {
        synchronized (this) {
            if (ticket.state == TicketState.WAITING) {
                waiting.remove(ticket);
            } else if (ticket.state == TicketState.ADMITTED) {
                running--;
                runningPerDatabase.merge(ticket.table.getDatabaseName(), -1, Integer::sum);
                if (ticket.claimId != null) {
                    unreleased.add(ticket.claimId);
                } else {
                    onFairShare.remove(ticket);
                }
            }
            ticket.state = TicketState.CLOSED;
        }
        // A CU may have freed: the line moves.
        if (claimer == null) {
            passOverTheLine(null);
        } else {
            queuePass();
        }
    }

    private void queuePass() {
        if (passQueued.compareAndSet(false, true)) {
            try {
                claimer.execute(() -> {
                    passQueued.set(false);
                    passOverTheLine(null);
                    if (stillToDo()) {
                        queueRetry();
                    }
                });
            } catch (RejectedExecutionException e) {
                // Closed: the engine is stopping, and what it still held goes back with its instance.
                passQueued.set(false);
            }
        }
    }

    private void queueRetry() {
        if (retryQueued.compareAndSet(false, true)) {
            try {
                claimer.schedule(() -> {
                    retryQueued.set(false);
                    queuePass();
                }, retryInterval.toMillis(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // Closed, as above.
                retryQueued.set(false);
            }
        }
    }

    private synchronized boolean stillToDo() {
        return !waiting.isEmpty() || !unreleased.isEmpty() || !onFairShare.isEmpty();
    }

    /**
     * Frees the ended rounds' claims, then claims a CU for each waiting ticket in line order: once the cluster's
     * quota refuses, the rest of the line waits; once a database's quota refuses, the rest of that database's
     * tables wait. {@code requester} was admitted or refused for its own {@link #request}, so it is not told.
     */
    private void passOverTheLine(@Nullable Ticket requester) {
        synchronized (passing) {
            releaseEnded();
            boolean ledgerAnswers = claimForFairShareRounds();
            String clusterRefusal = ledgerAnswers && hasFairShareRounds() ? CATCHING_UP : null;
            List<Ticket> line;
            synchronized (this) {
                line = new ArrayList<>(waiting);
            }
            Map<String, String> databaseRefusals = new HashMap<>();
            for (Ticket next : line) {
                String database = next.table.getDatabaseName();
                String refusal = clusterRefusal != null ? clusterRefusal : databaseRefusals.get(database);
                if (refusal == null) {
                    // Once the ledger failed in this pass, the rest of the line is judged without it.
                    ClaimLedger.Answer answer = ledgerAnswers ? ask(next.table) : null;
                    if (answer == null) {
                        ledgerAnswers = false;
                        answer = fairShare(database);
                    }
                    if (answer instanceof ClaimLedger.Granted granted) {
                        admit(next, granted.claimId() == UNRECORDED ? null : granted.claimId(), requester);
                        continue;
                    }
                    ClaimLedger.Refused refused = (ClaimLedger.Refused) answer;
                    refusal = refused.reason();
                    if (refused.byDatabase()) {
                        databaseRefusals.put(database, refusal);
                    } else {
                        clusterRefusal = refusal;
                    }
                }
                heldBack(next, refusal, requester);
            }
        }
    }

    /**
     * Claims the CUs of the rounds running on the fair share, once the ledger answers again; returns whether it
     * did answer. A claim the quotas refuse is tried again with the next pass.
     */
    private boolean claimForFairShareRounds() {
        List<Ticket> unclaimed;
        synchronized (this) {
            unclaimed = new ArrayList<>(onFairShare);
        }
        for (Ticket round : unclaimed) {
            ClaimLedger.Answer answer = ask(round.table);
            if (answer == null) {
                return false;
            }
            if (answer instanceof ClaimLedger.Granted granted) {
                synchronized (this) {
                    if (onFairShare.remove(round)) {
                        round.claimId = granted.claimId();
                    } else {
                        // Ended meanwhile.
                        unreleased.add(granted.claimId());
                    }
                }
            }
        }
        return true;
    }

    private synchronized boolean hasFairShareRounds() {
        return !onFairShare.isEmpty();
    }

    /** The ledger's answer, or null if it is unreachable; logs when that changes. */
    @Nullable
    private ClaimLedger.Answer ask(TablePath table) {
        try {
            ClaimLedger.Answer answer = ledger.claim(table, quotas);
            if (ledgerDown) {
                ledgerDown = false;
                LOG.info("The shared state answers CU claims again: the quotas count every instance's rounds");
            }
            return answer;
        } catch (ClaimLedger.Unreachable e) {
            if (!ledgerDown) {
                ledgerDown = true;
                LOG.warn("CU claims cannot reach the shared state ({}): this instance runs at most its fair share "
                        + "of each quota, the quota divided by {} live instance(s), until they can", e.getMessage(),
                        ledger.liveInstances());
            }
            return null;
        }
    }

    /** The fair-share rule while the ledger is unreachable: see the class comment. */
    private ClaimLedger.Answer fairShare(String database) {
        int instances = ledger.liveInstances();
        ClaimLedger.Refused refused;
        synchronized (this) {
            refused = quotas.fairShare(instances).refusal(database, running, runningPerDatabase.getOrDefault(database, 0));
        }
        return refused == null
                ? new ClaimLedger.Granted(UNRECORDED)
                : new ClaimLedger.Refused(refused.byDatabase(), "The shared state does not answer, so this instance "
                        + "runs its fair share of each quota (divided by " + instances + " live instance(s)). "
                        + refused.reason());
    }

    private void admit(Ticket ticket, @Nullable Long claimId, @Nullable Ticket requester) {
        synchronized (this) {
            if (ticket.state == TicketState.WAITING) {
                waiting.remove(ticket);
                running++;
                runningPerDatabase.merge(ticket.table.getDatabaseName(), 1, Integer::sum);
                ticket.claimId = claimId;
                ticket.state = TicketState.ADMITTED;
                if (claimId == null) {
                    onFairShare.add(ticket);
                }
            } else {
                // Given back while its claim was on the way: the CU goes back too, with the next pass.
                if (claimId != null) {
                    unreleased.add(claimId);
                }
                return;
            }
        }
        if (ticket != requester) {
            LOG.debug("Round of table {} admitted after waiting for a CU", ticket.table);
            ticket.whenAdmitted.run();
        }
    }

    private void heldBack(Ticket ticket, String reason, @Nullable Ticket requester) {
        boolean firstReason;
        synchronized (this) {
            if (ticket.state != TicketState.WAITING) {
                return;
            }
            firstReason = ticket.reason == null;
            ticket.reason = reason;
        }
        if (firstReason) {
            LOG.debug("Round of table {} held back: {}", ticket.table, reason);
            if (ticket != requester) {
                ticket.whenHeldBack.accept(reason);
            }
        }
    }

    /** Frees the claims of ended rounds in the ledger; those it cannot free yet stay for the next pass. */
    private void releaseEnded() {
        while (true) {
            Long claimId;
            synchronized (this) {
                claimId = unreleased.poll();
            }
            if (claimId == null) {
                return;
            }
            try {
                ledger.release(claimId);
            } catch (ClaimLedger.Unreachable e) {
                LOG.debug("CU claim {} not released yet: {}", claimId, e.getMessage());
                synchronized (this) {
                    unreleased.addFirst(claimId);
                }
                return;
            }
        }
    }

    private enum TicketState {
        WAITING,
        ADMITTED,
        CLOSED
    }

    /** One round's claim on a CU; see the class comment for its states. */
    public final class Ticket implements AutoCloseable {
        private final TablePath table;
        private final Runnable whenAdmitted;
        private final Consumer<String> whenHeldBack;
        private TicketState state = TicketState.WAITING;
        @Nullable private String reason;
        /** The ledger's claim of an admitted ticket; null if admitted under the fair-share rule. */
        @Nullable private Long claimId;

        private Ticket(TablePath table, Runnable whenAdmitted, Consumer<String> whenHeldBack) {
            this.table = table;
            this.whenAdmitted = whenAdmitted;
            this.whenHeldBack = whenHeldBack;
        }

        /** Whether the round may run now. */
        public boolean admitted() {
            synchronized (QuotaAdmission.this) {
                return state == TicketState.ADMITTED;
            }
        }

        /** Why the round waits (set once a claim was refused), for the table's status; null before. */
        @Nullable
        public String heldBackReason() {
            synchronized (QuotaAdmission.this) {
                return reason;
            }
        }

        /** Frees the CU or leaves the line; idempotent. */
        @Override
        public void close() {
            QuotaAdmission.this.close(this);
        }
    }
}
