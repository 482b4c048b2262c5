package io.lakesync.tiering.capacity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.fluss.metadata.TablePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which held table may start a round now, so the rounds never use more compute units than the
 * {@link CapacityQuotas} allow. Every round attempt asks for a {@link Ticket}; it is admitted at once while its
 * database and the cluster have a CU free and nobody waits ahead of it, otherwise it queues with the reason.
 *
 * <pre>
 *   request ──► fits, nobody ahead who fits ──► ADMITTED ──► close (round ended) ──► CLOSED
 *      │                                           ▲
 *      └──► WAITING (reason) ── a CU frees, first ─┘ (whenAdmitted runs)
 *               │               in line that fits
 *               └──────── close (table given back) ─────────────────────────────► CLOSED
 * </pre>
 *
 * Fair share: the line is first come, first served, and a table asks again for every round, so a table that
 * just ran queues behind those that waited; within a quota the tables take turns and none starves. A waiter
 * whose database is full does not hold up the tables of other databases behind it.
 */
public final class QuotaAdmission {

    private static final Logger LOG = LoggerFactory.getLogger(QuotaAdmission.class);

    private final CapacityQuotas quotas;
    private final Set<Ticket> waiting = new LinkedHashSet<>();
    private final Map<String, Integer> runningPerDatabase = new HashMap<>();
    private int running;

    public QuotaAdmission(CapacityQuotas quotas) {
        this.quotas = quotas;
    }

    /**
     * Asks to start a round of {@code table}. The ticket is admitted at once or waits; a waiting ticket runs
     * {@code whenAdmitted} (on the thread that freed the CU) once it is admitted. Close the ticket when the
     * round ends or the table leaves, whichever state it is in.
     */
    public Ticket request(TablePath table, Runnable whenAdmitted) {
        Ticket ticket = new Ticket(table, whenAdmitted);
        List<Ticket> admitted;
        synchronized (this) {
            waiting.add(ticket);
            admitted = admitWhatFits();
            if (ticket.state == TicketState.WAITING) {
                ticket.reason = heldBackReason(table);
                LOG.debug("Round of table {} held back: {}", table, ticket.reason);
            }
        }
        // Others cannot have been admitted by this request (it freed nothing), but keep the rule in one place.
        admitted.stream().filter(t -> t != ticket).forEach(Ticket::admittedLater);
        return ticket;
    }

    /** CUs the running rounds use now. */
    public synchronized int runningCu() {
        return running;
    }

    private void close(Ticket ticket) {
        List<Ticket> admitted;
        synchronized (this) {
            if (ticket.state == TicketState.WAITING) {
                waiting.remove(ticket);
            } else if (ticket.state == TicketState.ADMITTED) {
                running--;
                runningPerDatabase.merge(ticket.table.getDatabaseName(), -1, Integer::sum);
            }
            ticket.state = TicketState.CLOSED;
            admitted = admitWhatFits();
        }
        admitted.forEach(Ticket::admittedLater);
    }

    /** Admits waiters in line order while they fit; called holding the lock. */
    private List<Ticket> admitWhatFits() {
        List<Ticket> admitted = new ArrayList<>();
        for (Iterator<Ticket> line = waiting.iterator(); line.hasNext() && running < quotas.clusterCu(); ) {
            Ticket next = line.next();
            String database = next.table.getDatabaseName();
            Integer databaseQuota = quotas.databaseCu().get(database);
            if (databaseQuota != null && runningPerDatabase.getOrDefault(database, 0) >= databaseQuota) {
                continue;
            }
            line.remove();
            running++;
            runningPerDatabase.merge(database, 1, Integer::sum);
            next.state = TicketState.ADMITTED;
            admitted.add(next);
        }
        return admitted;
    }

    private String heldBackReason(TablePath table) {
        String database = table.getDatabaseName();
        Integer databaseQuota = quotas.databaseCu().get(database);
        if (running >= quotas.clusterCu()) {
            return "Held back by the cluster quota: " + running + " of " + quotas.clusterCu()
                    + " CUs in use (quota.cluster-cu); the round starts when one frees.";
        }
        return "Held back by the quota of database '" + database + "': "
                + runningPerDatabase.getOrDefault(database, 0) + " of " + databaseQuota
                + " CUs in use (quota.database-cu); its tables take turns.";
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
        private TicketState state = TicketState.WAITING;
        @Nullable private String reason;

        private Ticket(TablePath table, Runnable whenAdmitted) {
            this.table = table;
            this.whenAdmitted = whenAdmitted;
        }

        /** Whether the round may run now. */
        public boolean admitted() {
            synchronized (QuotaAdmission.this) {
                return state == TicketState.ADMITTED;
            }
        }

        /** Why the round waits (set when the ticket had to queue), for the table's status. */
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

        private void admittedLater() {
            LOG.debug("Round of table {} admitted after waiting for a CU", table);
            whenAdmitted.run();
        }
    }
}
