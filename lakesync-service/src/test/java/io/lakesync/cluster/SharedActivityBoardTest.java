package io.lakesync.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.local.ClusterTest;
import io.lakesync.state.PostgresServer;
import io.lakesync.state.StateStore;
import io.lakesync.status.ActivityBoard;
import io.lakesync.status.ActivityChange;
import io.lakesync.status.EngineActivity;
import io.lakesync.tiering.FailureKind;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances (two state stores on one real database) recording events of the same table at the same time, as
 * around a hand-over: the shared totals count every event exactly once.
 */
@ClusterTest
class SharedActivityBoardTest {

    private static final String TABLE = "shop.orders";
    private static final int EVENTS_PER_THREAD = 25;
    /** A successful round of 10 rows, 100 bytes and one file. */
    private static final ActivityChange TIERED =
            ActivityChange.succeeded(10, 100, 1, Duration.ofSeconds(1), Instant.parse("2026-12-06T10:00:00Z"));

    @RegisterExtension
    static PostgresServer postgres = new PostgresServer();

    @TempDir Path dir;

    @Test
    void onPostgresqlConcurrentEventsOfTwoInstancesAddUpExactly() throws Exception {
        String database = postgres.newDatabase();
        try (StateStore a = postgres.open(database, Clock.systemUTC());
                StateStore b = postgres.open(database, Clock.systemUTC())) {
            assertExactTotals(a, b, 4);
        }
    }

    @Test
    void onSqliteConcurrentEventsOfTwoInstancesAddUpExactly() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("state.db");
        try (StateStore a = StateStore.open(url, "", "", Clock.systemUTC());
                StateStore b = StateStore.open(url, "", "", Clock.systemUTC())) {
            // Fewer threads: SQLite's writers wait for one another by polling, which is slow under contention.
            assertExactTotals(a, b, 2);
        }
    }

    private static void assertExactTotals(StateStore a, StateStore b, int threadsPerInstance) throws Exception {
        List<ActivityBoard> boards = List.of(new SharedActivityBoard(a, "a"), new SharedActivityBoard(b, "b"));
        ExecutorService threads = Executors.newFixedThreadPool(boards.size() * threadsPerInstance);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Void>> done = new ArrayList<>();
        try {
            for (ActivityBoard board : boards) {
                for (int t = 0; t < threadsPerInstance; t++) {
                    done.add(threads.submit((Callable<Void>) () -> {
                        go.await();
                        for (int i = 0; i < EVENTS_PER_THREAD; i++) {
                            // every fifth round fails
                            board.apply(UUID.randomUUID().toString(), Map.of(TABLE, i % 5 == 4
                                    ? ActivityChange.failed(FailureKind.TRANSIENT, "failed", null) : TIERED));
                        }
                        return null;
                    }));
                }
            }
            go.countDown();
            for (Future<Void> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }

        int events = boards.size() * threadsPerInstance * EVENTS_PER_THREAD;
        EngineActivity total = boards.get(1).get(TABLE).orElseThrow();
        assertThat(total.rounds()).isEqualTo(events * 4 / 5);
        assertThat(total.failures()).isEqualTo(events / 5);
        assertThat(total.rowsTiered()).isEqualTo(events * 4 / 5 * 10L);
        assertThat(total.bytesTiered()).isEqualTo(events * 4 / 5 * 100L);
        assertThat(total.filesWritten()).isEqualTo(events * 4 / 5);
    }
}
