package io.lakesync.state;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.cluster.SharedActivityBoard;
import io.lakesync.local.ClusterTest;
import io.lakesync.status.ActivityChange;
import io.lakesync.status.BucketCheckpoint;
import io.lakesync.status.TableObservation;
import io.lakesync.status.TableObserver;
import io.lakesync.status.TableState;
import io.lakesync.status.TableStatus;
import io.lakesync.status.TableStatusTracker;
import io.lakesync.testing.ManualClock;
import io.lakesync.tiering.capacity.RoundUsage;
import io.lakesync.fluss.Deadline;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.tiering.round.RoundPhases;
import io.lakesync.tiering.round.RoundResult;
import io.lakesync.tiering.lake.LakeTableKind;
import io.lakesync.usage.UsageMeter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real PostgreSQL state that freezes (SIGSTOP) under a running instance: its calls fail within the configured
 * timeouts instead of hanging, what the engine reports meanwhile returns at once and is written exactly once after
 * the server goes on (SIGCONT), and the status keeps observing while saying that the state database is unreachable.
 */
@ClusterTest
class StateDatabaseOutageTest {

    private static final Instant T0 = Instant.parse("2026-12-06T10:00:00Z");
    private static final TablePath ORDERS = TablePath.of("shop", "orders");
    private static final TableAssignment ASSIGNMENT = new TableAssignment(7, ORDERS, 1);
    private static final StateStore.Timeouts TIMEOUTS = new StateStore.Timeouts(Duration.ofSeconds(1), Duration.ofSeconds(2));
    /** The timeouts with room for a loaded machine: far less than a call that hangs. */
    private static final Duration FAILS_WITHIN = Duration.ofSeconds(10);
    private static final int ROUNDS = 40;

    @RegisterExtension static PostgresServer postgres = PostgresServer.ownServer();

    @TempDir Path dir;

    private final ManualClock clock = new ManualClock(T0);

    @Test
    void aCallToAFrozenServerFailsWithinTheTimeoutsAndTheNextOneAfterItWorks() throws Exception {
        try (StateStore store = open()) {
            assertThat(now(store)).isPositive();
            postgres.pause();
            try {
                long start = System.nanoTime();
                assertThatThrownBy(() -> now(store)).isInstanceOf(StateStoreException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(FAILS_WITHIN);
            } finally {
                postgres.resume();
            }
            eventually(FAILS_WITHIN, () -> assertThat(now(store)).isPositive());
        }
    }

    @Test
    void whatTheEngineReportsWhileTheServerIsFrozenReturnsAtOnceAndIsWrittenOnceAfterwards() throws Exception {
        try (StateStore store = open();
                TableStatusTracker tracker = new TableStatusTracker(new OneTable(), new SharedActivityBoard(store, "a"), 1,
                        clock, () -> store.serviceSwitch().get().map(ServiceSwitch::enabled).orElse(true), 100,
                        Duration.ofSeconds(1), Duration.ofSeconds(15));
                UsageMeter usage = new UsageMeter(store, dir.resolve("usage-spool"))) {
            tracker.refresh();
            assertThat(tracker.problems()).isEmpty();

            postgres.pause();
            try {
                long start = System.nanoTime();
                for (int round = 0; round < ROUNDS; round++) {
                    tracker.roundStarted(ASSIGNMENT);
                    tracker.roundFinished(new RoundResult(ASSIGNMENT, clock.instant(), Duration.ofSeconds(1), 5L + round,
                            false, List.of(), 1, 100, RoundPhases.none(), LakeTableKind.APPEND));
                    usage.roundMeasured(new RoundUsage(ASSIGNMENT, clock.instant(), Duration.ofSeconds(1), 1_000_000,
                            1024, 1024, 10, 100));
                }
                assertThat(Duration.ofNanos(System.nanoTime() - start))
                        .as("no engine call waited for the state database").isLessThan(Duration.ofSeconds(2));

                clock.advance(Duration.ofSeconds(5));
                TableStatus status = tracker.refresh().get(0);
                assertThat(status.stale()).as("Fluss and the lake still observed").isFalse();
                assertThat(status.observedAt()).isEqualTo(T0.plusSeconds(5));
                assertThat(status.state()).isEqualTo(TableState.UP_TO_DATE);
                assertThat(status.activity().rounds()).as("as this instance knows it").isEqualTo(ROUNDS);
                assertThat(status.reason()).contains("State database unreachable since 2026-12-06T10:00:05Z");
                assertThat(tracker.problems()).singleElement().asString()
                        .startsWith("State database unreachable since 2026-12-06T10:00:05Z: ")
                        .doesNotContain(store.jdbcUrl());
            } finally {
                postgres.resume();
            }

            eventually(FAILS_WITHIN, () -> assertThat(tracker.writeActivity()).isTrue());
            assertThat(firstRow(store, "SELECT rounds, bytes_tiered, files_written, syncing FROM table_activity "
                    + "WHERE table_name = ?", ORDERS.toString()))
                    .containsExactly((long) ROUNDS, ROUNDS * 100L, (long) ROUNDS, false);
            eventually(FAILS_WITHIN, () -> {
                usage.flush();
                assertThat(firstRow(store, "SELECT CAST(SUM(rounds) AS BIGINT), CAST(SUM(rows_tiered) AS BIGINT) "
                        + "FROM table_usage WHERE table_name = ?", ORDERS.getTableName()))
                        .containsExactly((long) ROUNDS, ROUNDS * 10L);
            });

            clock.advance(Duration.ofSeconds(5));
            assertThat(tracker.refresh().get(0).reason()).doesNotContain("State database");
            assertThat(tracker.problems()).isEmpty();
        }
    }

    @Test
    void aBatchTriedAgainUnderItsKeyIsAppliedOnce() throws Exception {
        try (StateStore store = open()) {
            SharedActivityBoard board = new SharedActivityBoard(store, "a");
            Map<String, ActivityChange> batch =
                    Map.of(ORDERS.toString(), ActivityChange.succeeded(10, 100, 1, Duration.ofSeconds(1), T0));
            assertThat(board.apply("batch-1", batch)).isTrue();
            assertThat(board.apply("batch-1", batch)).as("its commit went through before").isFalse();
            assertThat(board.get(ORDERS.toString()).orElseThrow().rounds()).isEqualTo(1);
        }
    }

    private StateStore open() throws Exception {
        return StateStore.open(postgres.newDatabase(), PostgresServer.SUPERUSER, PostgresServer.PASSWORD, TIMEOUTS, clock);
    }

    /** The first row {@code query} returns, its columns as JDBC reads them. */
    private static List<Object> firstRow(StateStore store, String query, Object... params) {
        return store.read(sql -> sql.queryFirst(query, row -> {
            List<Object> columns = new java.util.ArrayList<>();
            for (int i = 1; i <= row.getMetaData().getColumnCount(); i++) {
                columns.add(row.getObject(i));
            }
            return columns;
        }, params)).orElseThrow();
    }

    private static long now(StateStore store) {
        return store.read(sql -> sql.queryFirst("SELECT 1", row -> row.getLong(1)).orElseThrow());
    }

    /** Fluss and the lake, answering: one table, everything in the lake. */
    private final class OneTable implements TableObserver {
        @Override
        public List<TablePath> listTables(Deadline deadline) {
            return List.of(ORDERS);
        }

        @Override
        public void probeLake(Deadline deadline) {}

        @Override
        public TableObservation observe(TablePath path, Deadline deadline) {
            return new TableObservation(path, 7, true, Duration.ofSeconds(30), 4L, T0,
                    List.of(new BucketCheckpoint(null, 0, 100, 100)), null, clock.instant());
        }
    }
}
