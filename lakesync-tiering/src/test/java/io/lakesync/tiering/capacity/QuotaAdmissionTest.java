package io.lakesync.tiering.capacity;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.config.LakeSyncConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

class QuotaAdmissionTest {

    private static final TablePath SALES_1 = TablePath.of("sales", "t1");
    private static final TablePath SALES_2 = TablePath.of("sales", "t2");
    private static final TablePath LOGS_1 = TablePath.of("logs", "t1");
    private static final TablePath LOGS_2 = TablePath.of("logs", "t2");
    /** An admission whose ledger answers at once tells a reason only to the request that gets it. */
    private static final Consumer<String> NOT_TOLD = reason -> {
        throw new AssertionError("told of a reason after the request: " + reason);
    };
    private static final Duration RETRY = Duration.ofMillis(20);
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void databaseQuotaHoldsItsTablesBackWithTheReasonWhileOthersRun() {
        QuotaAdmission admission = new QuotaAdmission(new CapacityQuotas(10, Map.of("sales", 1)));
        List<TablePath> admittedLater = new ArrayList<>();
        QuotaAdmission.Ticket first = admission.request(SALES_1, () -> admittedLater.add(SALES_1), NOT_TOLD);
        QuotaAdmission.Ticket second = admission.request(SALES_2, () -> admittedLater.add(SALES_2), NOT_TOLD);
        QuotaAdmission.Ticket other = admission.request(LOGS_1, () -> admittedLater.add(LOGS_1), NOT_TOLD);

        assertThat(first.admitted()).isTrue();
        assertThat(second.admitted()).isFalse();
        assertThat(second.heldBackReason())
                .isEqualTo("Held back by the quota of database 'sales': 1 of 1 CUs in use (quota.database-cu); "
                        + "its tables take turns.");
        assertThat(other.admitted()).isTrue();
        assertThat(admission.runningCu()).isEqualTo(2);

        first.close();
        assertThat(admittedLater).containsExactly(SALES_2);
        assertThat(second.admitted()).isTrue();
        first.close();
        assertThat(admission.runningCu()).as("closing twice frees one CU").isEqualTo(2);
    }

    @Test
    void clusterQuotaIsNamedAndAWaiterThatLeavesGetsNothing() {
        QuotaAdmission admission = new QuotaAdmission(new CapacityQuotas(1, Map.of()));
        List<TablePath> admittedLater = new ArrayList<>();
        QuotaAdmission.Ticket running = admission.request(SALES_1, () -> admittedLater.add(SALES_1), NOT_TOLD);
        QuotaAdmission.Ticket leaving = admission.request(SALES_2, () -> admittedLater.add(SALES_2), NOT_TOLD);
        QuotaAdmission.Ticket staying = admission.request(LOGS_1, () -> admittedLater.add(LOGS_1), NOT_TOLD);
        assertThat(leaving.heldBackReason())
                .isEqualTo("Held back by the cluster quota: 1 of 1 CUs in use (quota.cluster-cu); the round starts "
                        + "when one frees.");

        leaving.close();
        running.close();

        assertThat(admittedLater).containsExactly(LOGS_1);
        assertThat(staying.admitted()).isTrue();
        assertThat(leaving.admitted()).isFalse();
    }

    /**
     * 12 tables of one database with a 3 CU quota, each asking for its next round as soon as the last ended
     * (the worst case: nobody ever pauses), rounds of random length on a fake clock for 10 simulated hours: every
     * table gets its share of rounds, and none waits longer than the line ahead of it takes.
     */
    @Test
    void tablesWithinAQuotaTakeTurnsAndNoneStarves() {
        int quota = 3;
        int tables = 12;
        QuotaAdmission admission = new QuotaAdmission(new CapacityQuotas(100, Map.of("sales", quota)));
        Random random = new Random(42);
        Instant[] now = {Instant.EPOCH};
        PriorityQueue<RoundEnd> ends = new PriorityQueue<>((a, b) -> a.at.compareTo(b.at));
        Map<Integer, Integer> rounds = new HashMap<>();
        Map<Integer, Instant> waitingSince = new HashMap<>();
        Duration[] longestWait = {Duration.ZERO};
        Duration longestRound = Duration.ofSeconds(30);

        Runnable[] request = new Runnable[tables];
        for (int i = 0; i < tables; i++) {
            int table = i;
            request[i] = () -> {
                QuotaAdmission.Ticket[] ticket = new QuotaAdmission.Ticket[1];
                Runnable run = () -> {
                    Instant since = waitingSince.remove(table);
                    Duration waited = Duration.between(since, now[0]);
                    longestWait[0] = waited.compareTo(longestWait[0]) > 0 ? waited : longestWait[0];
                    rounds.merge(table, 1, Integer::sum);
                    Duration length = Duration.ofMillis(1 + random.nextInt((int) longestRound.toMillis()));
                    ends.add(new RoundEnd(now[0].plus(length), table, ticket));
                };
                waitingSince.put(table, now[0]);
                ticket[0] = admission.request(TablePath.of("sales", "t" + table), run, NOT_TOLD);
                if (ticket[0].admitted()) {
                    run.run();
                }
            };
            request[i].run();
        }
        Instant end = Instant.EPOCH.plus(Duration.ofHours(10));
        while (now[0].isBefore(end)) {
            RoundEnd next = ends.poll();
            now[0] = next.at;
            next.ticket[0].close();
            request[next.table].run();
            assertThat(admission.runningCu()).isLessThanOrEqualTo(quota);
        }

        int fewest = rounds.values().stream().mapToInt(Integer::intValue).min().orElse(0);
        int most = rounds.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        assertThat(rounds).hasSize(tables);
        assertThat(fewest).as("rounds of the table that ran least, of %s", rounds).isGreaterThan(most * 8 / 10);
        // Nobody waits longer than every other table running one round each, quota at a time.
        assertThat(longestWait[0]).isLessThanOrEqualTo(longestRound.multipliedBy((tables - 1) / quota + 1));
    }

    @Test
    void aSharedLedgerIsAskedOffTheCallersThreadAndCusOtherInstancesFreeAreSeenOnRetry() throws Exception {
        CapacityQuotas quotas = new CapacityQuotas(1, Map.of());
        SharedLedger ledger = new SharedLedger();
        long otherInstances = ((ClaimLedger.Granted) ledger.claim(LOGS_1, quotas)).claimId();
        try (Line line = new Line(new QuotaAdmission(quotas, ledger, RETRY))) {
            QuotaAdmission.Ticket waiting = line.request(SALES_1);
            QuotaAdmission.Ticket givenBack = line.request(SALES_2);
            assertThat(waiting.admitted()).as("a shared claim never answers on the requesting thread").isFalse();

            eventually(WAIT, () -> assertThat(line.heldBack).containsExactly(
                    "sales.t1: Held back by the cluster quota: 1 of 1 CUs in use (quota.cluster-cu); the round starts "
                            + "when one frees.",
                    "sales.t2: Held back by the cluster quota: 1 of 1 CUs in use (quota.cluster-cu); the round starts "
                            + "when one frees."));
            givenBack.close();
            ledger.release(otherInstances);
            eventually(WAIT, () -> assertThat(line.admitted).containsExactly(SALES_1));
            assertThat(ledger.claimed()).as("the admitted round's claim, and nothing for the table given back")
                    .isEqualTo(1);

            waiting.close();
            eventually(WAIT, () -> assertThat(ledger.claimed()).as("released when the round ends").isZero());
            assertThat(line.admission.runningCu()).isZero();
        }
    }

    @Test
    void whileTheLedgerIsUnreachableAnInstanceRunsItsFairShareAndReleasesOnceItAnswers() throws Exception {
        // Two live instances share 4 CUs, 2 of them for sales: each one's fair share is 2, 1 for sales.
        CapacityQuotas quotas = new CapacityQuotas(4, Map.of("sales", 2));
        SharedLedger ledger = new SharedLedger();
        ledger.live = 2;
        try (Line line = new Line(new QuotaAdmission(quotas, ledger, RETRY))) {
            QuotaAdmission.Ticket claimed = line.request(LOGS_1);
            eventually(WAIT, () -> assertThat(line.admitted).containsExactly(LOGS_1));

            ledger.reachable = false;
            claimed.close();
            QuotaAdmission.Ticket salesFirst = line.request(SALES_1);
            line.request(SALES_2);
            line.request(LOGS_2);
            eventually(WAIT, () -> assertThat(line.admitted).containsExactly(LOGS_1, SALES_1, LOGS_2));
            eventually(WAIT, () -> assertThat(line.heldBack).singleElement().asString()
                    .startsWith("sales.t2: The shared state does not answer, so this instance runs its fair share of "
                            + "each quota (divided by 2 live instance(s)). Held back by the quota of database "
                            + "'sales': 1 of 1 CUs in use (quota.database-cu)"));
            assertThat(line.admission.runningCu()).isEqualTo(2);
            assertThat(ledger.claimed()).as("the ended round's claim waits for the ledger").isEqualTo(1);

            ledger.reachable = true;
            eventually(WAIT, () -> assertThat(line.admitted).as("claimed in the ledger again").contains(SALES_2));
            assertThat(ledger.claimed()).as("the ended round's claim freed; the fair-share rounds claimed theirs "
                    + "before sales.t2 claimed its own").isEqualTo(3);
            salesFirst.close();
            eventually(WAIT, () -> assertThat(ledger.claimed()).isEqualTo(2));
        }
    }

    @Test
    void roundsStartedOnTheFairShareClaimTheirCusBeforeAnyNewRoundStarts() throws Exception {
        CapacityQuotas quotas = new CapacityQuotas(2, Map.of());
        SharedLedger ledger = new SharedLedger();
        ledger.live = 2;
        try (Line line = new Line(new QuotaAdmission(quotas, ledger, RETRY))) {
            ledger.reachable = false;
            line.request(SALES_1);
            eventually(WAIT, () -> assertThat(line.admitted).containsExactly(SALES_1));
            // Meanwhile the other instance, which still reaches the ledger, claims the whole quota.
            long first = ((ClaimLedger.Granted) ledger.claims.claim(LOGS_1, quotas)).claimId();
            long second = ((ClaimLedger.Granted) ledger.claims.claim(LOGS_2, quotas)).claimId();
            QuotaAdmission.Ticket next = line.request(SALES_2);

            ledger.reachable = true;
            eventually(WAIT, () -> assertThat(next.heldBackReason()).isEqualTo("Held back until the rounds this "
                    + "instance started on its fair share, while the shared state did not answer, have claimed their "
                    + "CUs in it or ended."));
            ledger.claims.release(first);
            eventually(WAIT, () -> assertThat(next.heldBackReason()).as("sales.t1 claimed the CU that freed")
                    .startsWith("Held back by the cluster quota: 2 of 2 CUs in use"));
            ledger.claims.release(second);
            eventually(WAIT, () -> assertThat(line.admitted).containsExactly(SALES_1, SALES_2));
        }
    }

    @Test
    void badDatabaseQuotaNamesTheOptionAndTheEntry() {
        assertThatThrownBy(() -> CapacityQuotas.of(LakeSyncConfig.fromMap(Map.of("quota.database-cu", "sales:8,logs"), "test")))
                .hasMessage("Config key 'quota.database-cu' has the entry 'logs'; each entry must be database:CUs "
                        + "with at least 1 CU, for example 'sales:8,logs:2'.");
        assertThatThrownBy(() -> CapacityQuotas.of(LakeSyncConfig.fromMap(Map.of("quota.database-cu", "a:1,a:2"), "test")))
                .hasMessage("Config key 'quota.database-cu' names database 'a' twice.");
        assertThatThrownBy(() -> CapacityQuotas.of(LakeSyncConfig.fromMap(Map.of("quota.cluster-cu", "0"), "test")))
                .hasMessage("Config key 'quota.cluster-cu' must be at least 1 CU, but is 0.");
        assertThat(CapacityQuotas.of(LakeSyncConfig.fromMap(Map.of("quota.database-cu", " sales:8 , logs:2"), "test")))
                .isEqualTo(new CapacityQuotas(1000, Map.of("sales", 8, "logs", 2)));
    }

    private record RoundEnd(Instant at, int table, QuotaAdmission.Ticket[] ticket) {}

    /** A ledger shared with other instances, in memory, that can be cut off; it answers like the database's. */
    private static final class SharedLedger implements ClaimLedger {
        private final LocalClaimLedger claims = new LocalClaimLedger();
        private final Set<Long> held = ConcurrentHashMap.newKeySet();
        volatile boolean reachable = true;
        volatile int live = 1;

        @Override
        public Answer claim(TablePath table, CapacityQuotas quotas) throws Unreachable {
            checkReachable();
            Answer answer = claims.claim(table, quotas);
            if (answer instanceof Granted granted) {
                held.add(granted.claimId());
            }
            return answer;
        }

        @Override
        public void release(long claimId) throws Unreachable {
            checkReachable();
            claims.release(claimId);
            held.remove(claimId);
        }

        int claimed() {
            return held.size();
        }

        private void checkReachable() throws Unreachable {
            if (!reachable) {
                throw new Unreachable("cut off", null);
            }
        }

        @Override
        public int liveInstances() {
            return live;
        }

        @Override
        public boolean answersAtOnce() {
            return false;
        }
    }

    /** The tables of one instance asking an admission, and what it told them. */
    private static final class Line implements AutoCloseable {
        final QuotaAdmission admission;
        final List<TablePath> admitted = new CopyOnWriteArrayList<>();
        final List<String> heldBack = new CopyOnWriteArrayList<>();

        Line(QuotaAdmission admission) {
            this.admission = admission;
        }

        QuotaAdmission.Ticket request(TablePath table) {
            return admission.request(table, () -> admitted.add(table), reason -> heldBack.add(table + ": " + reason));
        }

        @Override
        public void close() throws InterruptedException {
            admission.close();
        }
    }
}
