package io.lakesync.cluster;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.local.ClusterTest;
import io.lakesync.state.PostgresServer;
import io.lakesync.state.StateStore;
import io.lakesync.testing.ManualClock;
import io.lakesync.tiering.capacity.CapacityQuotas;
import io.lakesync.tiering.capacity.ClaimLedger;
import io.lakesync.tiering.capacity.QuotaAdmission;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * CU claims of several instances in one real PostgreSQL state: the quotas hold for all of them together, the
 * claims of a dead instance come back after the instance timeout, and a ledger that does not answer in time
 * leaves each instance its fair share. Time passes for the database's stamps by ageing them, as in
 * {@link ClusterNodeTest}.
 */
@ClusterTest
class SharedClaimLedgerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CALL_TIMEOUT = Duration.ofMillis(500);
    private static final Duration RETRY = Duration.ofMillis(50);
    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    static PostgresServer postgres = new PostgresServer();

    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-06T12:00:00Z"));
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    /**
     * Two instances, each with its own connection pool and eight tables that ask for their next round as soon as
     * the last ended, share a cluster quota of 3 CUs and 1 for the sales database. Rounds are counted as they are
     * admitted and end; each ends once the quota is in use in full: never more than 3 rounds in all, or 1 of
     * sales, at once, and as many claims in the state.
     */
    @Test
    void twoInstancesSharingTheStateNeverRunMoreRoundsAtOnceThanTheQuota() throws Exception {
        int quota = 3;
        CapacityQuotas quotas = new CapacityQuotas(quota, Map.of("sales", 1));
        String database = postgres.newDatabase();
        StateStore store = track(postgres.open(database, clock));
        List<Instance> instances = List.of(
                new Instance("a", quotas, track(postgres.open(database, clock))),
                new Instance("b", quotas, track(postgres.open(database, clock))));
        Rounds rounds = new Rounds();
        for (Instance instance : instances) {
            for (int table = 0; table < 8; table++) {
                instance.request(TablePath.of(table % 4 == 0 ? "sales" : "logs", instance.id + table), rounds);
            }
        }

        Map<String, Integer> roundsPerInstance = new HashMap<>();
        for (int ended = 0; ended < 60; ended++) {
            // More tables wait than the quota has CUs: it fills up before each round ends.
            eventually(WAIT, () -> assertThat(rounds.running.get()).isEqualTo(quota));
            assertThat(claims(store)).as("CUs claimed in the state").isEqualTo(quota);
            Round round = rounds.admitted.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(round).as("a running round").isNotNull();
            roundsPerInstance.merge(round.instance.id, 1, Integer::sum);
            rounds.end(round);
            round.instance.request(round.table, rounds);
        }

        // One line for the cluster: the CUs go to the tables in the order they waited, so both instances, with
        // eight tables each, ran about half the rounds, however quickly one asks again after a round ended.
        assertThat(roundsPerInstance.get("a")).as("rounds of a").isGreaterThanOrEqualTo(20);
        assertThat(roundsPerInstance.get("b")).as("rounds of b").isGreaterThanOrEqualTo(20);

        // Instance a stops asking for rounds: once its last ones ended, b's waiting tables take the whole quota.
        Instance a = instances.get(0);
        while (!roundsPerInstance.containsKey("b")) {
            Round round = rounds.admitted.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(round).as("a running round").isNotNull();
            roundsPerInstance.merge(round.instance.id, 1, Integer::sum);
            rounds.end(round);
            if (round.instance != a) {
                round.instance.request(round.table, rounds);
            }
        }

        assertThat(rounds.peak.get()).as("rounds running at once on both instances, at most").isEqualTo(quota);
        assertThat(rounds.salesPeak.get()).as("rounds of sales at once, at most").isEqualTo(1);
        assertThat(roundsPerInstance).as("both instances ran rounds").containsOnlyKeys("a", "b");
    }

    @Test
    void claimsOfAnInstanceDeadLongerThanTheTimeoutAreReclaimedAndReleasesFreeAtOnce() throws Exception {
        CapacityQuotas quotas = new CapacityQuotas(2, Map.of());
        String database = postgres.newDatabase();
        StateStore store = track(postgres.open(database, clock));
        Membership membership = instancesAAndB(store);
        SharedClaimLedger a = ledger(store, "a");
        SharedClaimLedger b = ledger(store, "b");

        long released = granted(a.claim(TablePath.of("logs", "one"), quotas));
        granted(a.claim(TablePath.of("logs", "two"), quotas));
        assertThat(b.claim(TablePath.of("logs", "three"), quotas)).isEqualTo(new ClaimLedger.Refused(false,
                "Held back by the cluster quota: 2 of 2 CUs in use (quota.cluster-cu); the round starts when one frees."));
        a.release(released);
        a.release(released);
        long bClaim = granted(b.claim(TablePath.of("logs", "three"), quotas));
        assertThat(b.liveInstances()).isEqualTo(2);

        // a stops beating (killed), b beats on.
        timePasses(store, TIMEOUT.minusSeconds(1));
        membership.heartbeat("b", Set.of());
        assertThat(b.claim(TablePath.of("logs", "four"), quotas)).as("a is not dead yet")
                .isInstanceOf(ClaimLedger.Refused.class);
        timePasses(store, Duration.ofSeconds(2));
        membership.heartbeat("b", Set.of());
        granted(b.claim(TablePath.of("logs", "four"), quotas));
        assertThat(b.liveInstances()).as("as last seen").isEqualTo(1);
        assertThat(claimsOf(store)).as("a's claim reclaimed, b's kept however old").containsOnlyKeys("b")
                .containsEntry("b", 2);

        // b stops, but its claim of logs.four is left behind (its close did not reach the state).
        b.release(bClaim);
        membership.stopped("b");
        membership.register("c", "host-c", "http://host-c:8080", "1.0", 2);
        SharedClaimLedger c = ledger(store, "c");
        granted(c.claim(TablePath.of("logs", "five"), quotas));
        assertThat(c.claim(TablePath.of("logs", "six"), quotas))
                .as("a claim younger than the timeout is kept, as it may be a new run's that has not beaten yet")
                .isInstanceOf(ClaimLedger.Refused.class);
        timePasses(store, TIMEOUT.plusSeconds(1));
        membership.heartbeat("c", Set.of());
        granted(c.claim(TablePath.of("logs", "six"), quotas));
        assertThat(claimsOf(store)).as("the stopped instance's claim is reclaimed").isEqualTo(Map.of("c", 2));
    }

    /**
     * A CU that frees goes to the round that has waited longest, on whichever instance, not to the instance that
     * asks first; a round whose instance stops asking leaves the line, and a full database does not hold up others.
     */
    @Test
    void aFreedCuGoesToTheRoundThatWaitedLongestOnAnyInstance() throws Exception {
        CapacityQuotas quotas = new CapacityQuotas(1, Map.of("sales", 1));
        String database = postgres.newDatabase();
        StateStore store = track(postgres.open(database, clock));
        SharedClaimLedger a = ledger(store, "a");
        SharedClaimLedger b = ledger(store, "b");

        long first = granted(a.claim(TablePath.of("logs", "one"), quotas));
        assertThat(b.claim(TablePath.of("logs", "two"), quotas)).isInstanceOf(ClaimLedger.Refused.class);
        a.release(first);
        assertThat(a.claim(TablePath.of("logs", "three"), quotas)).as("a asks first, but b's table waited longer")
                .isEqualTo(new ClaimLedger.Refused(false, "Waiting in line: 1 round(s) that asked before it, on any "
                        + "instance, get the free CUs first. Held back by the cluster quota: 1 of 1 CUs in use "
                        + "(quota.cluster-cu); the round starts when one frees."));
        long second = granted(b.claim(TablePath.of("logs", "two"), quotas));
        b.release(second);
        long third = granted(a.claim(TablePath.of("logs", "three"), quotas));
        assertThat(waiters(store)).as("the line is empty again").isZero();

        // b's table waits, then its instance stops asking (the table left): after the waiter timeout it is out.
        assertThat(b.claim(TablePath.of("logs", "four"), quotas)).isInstanceOf(ClaimLedger.Refused.class);
        DatabaseStamps.timePasses(clock, store, RETRY.multipliedBy(3).plus(CALL_TIMEOUT).plusSeconds(1),
                "compute_unit_waiter.asked_at", "compute_unit_waiter.waiting_since");
        a.release(third);
        long fifth = granted(a.claim(TablePath.of("logs", "five"), quotas));
        assertThat(waiters(store)).as("b's abandoned place is gone").isZero();
        a.release(fifth);

        // A waiter whose database is full takes no CU from a table of another database behind it.
        CapacityQuotas two = new CapacityQuotas(2, Map.of("sales", 1));
        granted(a.claim(TablePath.of("sales", "orders"), two));
        assertThat(b.claim(TablePath.of("sales", "refunds"), two)).isInstanceOf(ClaimLedger.Refused.class);
        granted(a.claim(TablePath.of("logs", "six"), two));
    }

    /**
     * The ledger's row is locked by a transaction that hangs (an instance stalled inside its claim): claims do not
     * answer within the timeout, and the admission of an instance that last saw two live instances runs its fair
     * share, half the quota; once the lock goes, claims are granted again.
     */
    @Test
    void aLedgerThatDoesNotAnswerInTimeLeavesEachInstanceItsFairShare() throws Exception {
        CapacityQuotas quotas = new CapacityQuotas(4, Map.of());
        String database = postgres.newDatabase();
        StateStore store = track(postgres.open(database, clock));
        instancesAAndB(store);
        SharedClaimLedger ledger = ledger(store, "a");
        assertThat(ledger.liveInstances()).isEqualTo(2);

        try (Connection stalled = DriverManager.getConnection(database, PostgresServer.SUPERUSER, PostgresServer.PASSWORD);
                Statement statement = stalled.createStatement()) {
            stalled.setAutoCommit(false);
            statement.execute("SELECT name FROM compute_unit_ledger FOR UPDATE");
            long started = System.nanoTime();
            assertThatThrownBy(() -> ledger.claim(TablePath.of("logs", "one"), quotas))
                    .isInstanceOf(ClaimLedger.Unreachable.class)
                    .hasMessageContaining("within 500 ms ('quota.claim-timeout')");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("bounded by the claim timeout")
                    .isLessThan(CALL_TIMEOUT.multipliedBy(4));

            QuotaAdmission admission = track(new QuotaAdmission(quotas, ledger, RETRY));
            List<String> heldBack = new CopyOnWriteArrayList<>();
            List<QuotaAdmission.Ticket> tickets = new ArrayList<>();
            for (int table = 0; table < 3; table++) {
                TablePath path = TablePath.of("logs", "t" + table);
                tickets.add(admission.request(path, () -> {}, reason -> heldBack.add(path + ": " + reason)));
            }
            eventually(WAIT, () -> assertThat(heldBack).singleElement().asString().isEqualTo("logs.t2: The shared "
                    + "state does not answer, so this instance runs its fair share of each quota (divided by 2 live "
                    + "instance(s)). Held back by the cluster quota: 2 of 2 CUs in use (quota.cluster-cu); the round "
                    + "starts when one frees."));
            assertThat(tickets).extracting(QuotaAdmission.Ticket::admitted).containsExactly(true, true, false);
            assertThat(claims(store)).as("no claim recorded meanwhile").isZero();

            stalled.rollback();
            eventually(WAIT, () -> assertThat(tickets.get(2).admitted()).as("claimed once the ledger answers").isTrue());
            assertThat(claims(store)).as("the fair-share rounds claimed their CUs first, then logs.t2 its own")
                    .isEqualTo(3);
            tickets.forEach(QuotaAdmission.Ticket::close);
            eventually(WAIT, () -> assertThat(claims(store)).as("released when the rounds end").isZero());
        }
    }

    private static int waiters(StateStore store) {
        return store.read(sql -> sql.queryFirst("SELECT COUNT(*) FROM compute_unit_waiter", row -> row.getInt(1)))
                .orElse(0);
    }

    private SharedClaimLedger ledger(StateStore store, String instanceId) {
        return track(new SharedClaimLedger(store, instanceId, TIMEOUT, CALL_TIMEOUT, RETRY));
    }

    private static long granted(ClaimLedger.Answer answer) {
        assertThat(answer).isInstanceOf(ClaimLedger.Granted.class);
        return ((ClaimLedger.Granted) answer).claimId();
    }

    private static int claims(StateStore store) {
        return store.read(sql -> sql.queryFirst("SELECT COUNT(*) FROM compute_unit_claim", row -> row.getInt(1)))
                .orElse(0);
    }

    private static int claimsOfDatabase(StateStore store, String database) {
        return store.read(sql -> sql.queryFirst("SELECT COUNT(*) FROM compute_unit_claim WHERE database_name = ?",
                row -> row.getInt(1), database)).orElse(0);
    }

    private static Map<String, Integer> claimsOf(StateStore store) {
        Map<String, Integer> claims = new HashMap<>();
        store.read(sql -> sql.query("SELECT instance_id, COUNT(*) AS n FROM compute_unit_claim GROUP BY instance_id",
                row -> claims.put(row.getString("instance_id"), row.getInt("n"))));
        return claims;
    }

    /** {@code elapsed} passes for what the database stamped: heartbeats and claims are aged by it. */
    private void timePasses(StateStore store, Duration elapsed) {
        DatabaseStamps.timePasses(clock, store, elapsed, "compute_unit_claim.claimed_at");
    }

    /** Registers instances a and b, alive from now on; returns their membership. */
    private Membership instancesAAndB(StateStore store) {
        Membership membership = new Membership(store, TIMEOUT);
        membership.register("a", "host-a", "http://host-a:8080", "1.0", 2);
        membership.register("b", "host-b", "http://host-b:8080", "1.0", 2);
        return membership;
    }

    private <T extends AutoCloseable> T track(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    private record Round(Instance instance, TablePath table, QuotaAdmission.Ticket ticket) {}

    /** The rounds admitted and not ended yet, counted as they are admitted and end, with the most at once. */
    private static final class Rounds {
        final BlockingQueue<Round> admitted = new LinkedBlockingQueue<>();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger sales = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();
        final AtomicInteger salesPeak = new AtomicInteger();

        void started(Round round) {
            peak.accumulateAndGet(running.incrementAndGet(), Math::max);
            if (round.table.getDatabaseName().equals("sales")) {
                salesPeak.accumulateAndGet(sales.incrementAndGet(), Math::max);
            }
            admitted.add(round);
        }

        /** The round ends: counted out before its CU frees, as a round's work ends before its ticket closes. */
        void end(Round round) {
            running.decrementAndGet();
            if (round.table.getDatabaseName().equals("sales")) {
                sales.decrementAndGet();
            }
            round.ticket.close();
        }
    }

    /** One instance: its own state connections, ledger and admission. */
    private final class Instance {
        final String id;
        final QuotaAdmission admission;

        Instance(String id, CapacityQuotas quotas, StateStore store) {
            this.id = id;
            // Unregistered, its claims count as alive for the instance timeout: an hour outlasts the test. And a
            // call timeout no busy test machine reaches, as this test is about claims, not outages.
            SharedClaimLedger ledger = track(new SharedClaimLedger(store, id, Duration.ofHours(1), Duration.ofSeconds(30), RETRY));
            this.admission = track(new QuotaAdmission(quotas, ledger, RETRY));
        }

        /** Asks for a round of {@code table}; it starts once admitted (a shared ledger never admits at once). */
        void request(TablePath table, Rounds rounds) {
            QuotaAdmission.Ticket[] ticket = new QuotaAdmission.Ticket[1];
            synchronized (ticket) {
                ticket[0] = admission.request(table, () -> {
                    synchronized (ticket) {
                        rounds.started(new Round(this, table, ticket[0]));
                    }
                }, reason -> {});
            }
        }
    }
}
