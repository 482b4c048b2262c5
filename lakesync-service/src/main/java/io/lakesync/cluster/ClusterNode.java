package io.lakesync.cluster;

import io.lakesync.fluss.tiering.TableAssignment;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance as a member of the cluster of lakesync instances sharing one state. Every heartbeat
 * ({@link #tick()}) it records that it is alive and which tables it holds, takes or renews the lease of the
 * once-per-cluster duties, and then runs the per-heartbeat duties (re-reading the shared service switch) and, as
 * leader, the once-per-cluster ones (handing back the tables of dead instances; alert evaluation asks
 * {@link #isLeader()} on its own schedule).
 *
 * <pre>
 *             lease taken                                 lease renewal fails, or not renewed in time
 *   FOLLOWER ─────────────▶ LEADER (evaluates alerts) ──────────────────────────────────────────▶ FOLLOWER
 *      ▲  └─ lease held by a live instance: stays                                                     │
 *      └──────────────────────────────────────────────────────────────────────────────────────────────┘
 * </pre>
 *
 * <p>A leader counts as one only until its lease's expiry as last renewed, so an instance that stalls longer
 * stops evaluating before another may take over. On the single-instance SQLite state the instance is always
 * the leader, and a second instance registering there is warned about. {@link #start} schedules the ticks, tests
 * call {@link #tick()} themselves.
 *
 * <p>Two clocks, each where it is safe: heartbeats and the lease are stamped and compared in the database's time
 * (see {@link Membership}, {@link LeaderLease}), so instances never compare their machines' clocks; how long this
 * instance may still count itself leader is measured on its own injected clock, from before it asked for the lease,
 * which is an elapsed time on one machine and ends no later than the lease in the database.
 */
public final class ClusterNode implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);

    private final String id;
    private final Membership membership;
    private final LeaderLease lease;
    private final Supplier<Collection<TableAssignment>> tablesHeld;
    private final Clock clock;
    private final List<Runnable> duties = new CopyOnWriteArrayList<>();
    private final List<Runnable> leaderDuties = new CopyOnWriteArrayList<>();
    private volatile Instant leaderUntil = Instant.MIN;
    /** When this instance registered, in the database's time: heartbeats of others are compared with it. */
    private Instant joinedAt = Instant.MAX;
    private boolean warnedSecondInstance;
    private volatile ScheduledExecutorService scheduler;
    /** The tables as the last heartbeat recorded them. */
    private volatile Set<TableAssignment> recordedTables = Set.of();
    /** Whether a write of the held tables waits on the heartbeat thread. */
    private final AtomicBoolean recordQueued = new AtomicBoolean();

    public ClusterNode(
            String id, Membership membership, LeaderLease lease, Supplier<Collection<TableAssignment>> tablesHeld, Clock clock) {
        this.id = id;
        this.membership = membership;
        this.lease = lease;
        this.tablesHeld = tablesHeld;
        this.clock = clock;
    }

    public String id() {
        return id;
    }

    /** Registers this instance and takes a first heartbeat, so it is listed and may lead from the start. */
    public void join(String host, String url, String version, int capacity) {
        joinedAt = membership.register(id, host, url, version, capacity);
        LOG.info("Instance {} joined the cluster ({}, {})", id, url, version);
        tick();
    }

    /** Runs {@code duty} after every heartbeat; a duty that fails is logged and runs again next time. */
    public void everyHeartbeat(Runnable duty) {
        duties.add(duty);
    }

    /** Runs {@code duty} after every heartbeat while this instance is the leader. */
    public void everyHeartbeatAsLeader(Runnable duty) {
        leaderDuties.add(duty);
    }

    /**
     * The engine took {@code assignment} (or starts a round of it): when the last heartbeat did not record it,
     * records the held tables at once, on the heartbeat thread. Should this instance die before its next
     * heartbeat, the leader then hands back the epoch the coordinator gave it; an older epoch would be ignored
     * by the coordinator, and the table would wait for the coordinator's own 2-minute timeout. Only schedules the
     * write, so engine threads may call it; one write at a time waits, however many tables are taken while the state
     * database does not answer (it records every table held when it runs). Before {@link #start} and after
     * {@link #close} it does nothing.
     */
    public void tableTaken(TableAssignment assignment) {
        ScheduledExecutorService ticks = scheduler;
        if (ticks == null || recordedTables.contains(assignment) || !recordQueued.compareAndSet(false, true)) {
            return;
        }
        try {
            ticks.execute(() -> {
                recordQueued.set(false);
                try {
                    recordHeartbeat();
                } catch (RuntimeException e) {
                    LOG.warn("Instance {} could not record the tables it holds in the shared state: {}", id, e.toString());
                }
            });
        } catch (RejectedExecutionException e) {
            // Closing: the clean stop records that it holds nothing.
        }
    }

    /** Ticks every {@code interval} on a thread of its own. */
    public synchronized void start(Duration interval) {
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "lakesync-cluster");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(this::tick, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One heartbeat: alive, leadership, then the duties (the leader's too, if it is). Never throws. */
    public void tick() {
        try {
            recordHeartbeat();
            warnIfNotAlone();
        } catch (RuntimeException e) {
            LOG.warn("Instance {} could not record its heartbeat in the shared state: {}", id, e.toString());
        }
        updateLeadership();
        List<Runnable> due = new ArrayList<>(duties);
        if (isLeader()) {
            due.addAll(leaderDuties);
        }
        for (Runnable duty : due) {
            try {
                duty.run();
            } catch (RuntimeException e) {
                LOG.warn("A cluster duty failed, retrying at the next heartbeat: {}", e.toString());
            }
        }
    }

    /** Whether this instance runs the once-per-cluster duties now. */
    public boolean isLeader() {
        return membership.singleInstanceStore() || clock.instant().isBefore(leaderUntil);
    }

    /** Every instance of the cluster, this one's leadership as it stands now. */
    public List<ClusterInstance> instances() {
        return membership.list(isLeader() ? id : lease.holder().orElse(null));
    }

    private void updateLeadership() {
        if (membership.singleInstanceStore()) {
            return;
        }
        boolean was = isLeader();
        Instant attempt = clock.instant();
        boolean holds;
        try {
            holds = lease.tryHold(id);
        } catch (RuntimeException e) {
            LOG.warn("Instance {} could not reach the lease of the cluster duties: {}", id, e.toString());
            holds = false;
        }
        if (holds) {
            leaderUntil = attempt.plus(lease.ttl());
        } else if (leaderUntil.isAfter(attempt)) {
            leaderUntil = Instant.MIN;
        }
        if (holds && !was) {
            LOG.info("Instance {} is now the leader: it evaluates the alert rules of the cluster", id);
        } else if (!holds && was) {
            LOG.info("Instance {} is no longer the leader", id);
        }
    }

    private void recordHeartbeat() {
        Set<TableAssignment> held = Set.copyOf(tablesHeld.get());
        membership.heartbeat(id, held);
        recordedTables = held;
    }

    private void warnIfNotAlone() {
        if (!membership.singleInstanceStore() || warnedSecondInstance) {
            return;
        }
        List<String> others = membership.list(id).stream()
                // one that beat since this one joined: not the leftover row of a crashed earlier run
                .filter(i -> i.state() == ClusterInstance.State.ALIVE && !i.id().equals(id)
                        && !i.heartbeatAt().isBefore(joinedAt))
                .map(ClusterInstance::id)
                .toList();
        if (!others.isEmpty()) {
            warnedSecondInstance = true;
            LOG.warn("Another lakesync instance ({}) runs on this SQLite state, which serves one instance only: "
                    + "alerts and status may disagree. Give every instance the same PostgreSQL 'state.jdbc-url'.",
                    String.join(", ", others));
        }
    }

    /** Stops the heartbeats, gives the lease up and marks this instance stopped. */
    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            try {
                scheduler.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        leaderUntil = Instant.MIN;
        try {
            if (!membership.singleInstanceStore()) {
                lease.release(id);
            }
            membership.stopped(id);
            LOG.info("Instance {} left the cluster", id);
        } catch (RuntimeException e) {
            LOG.warn("Instance {} could not record its stop in the shared state: {}", id, e.toString());
        }
    }
}
