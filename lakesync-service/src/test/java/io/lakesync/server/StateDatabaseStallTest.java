package io.lakesync.server;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.state.PostgresServer;
import io.lakesync.state.StateStore;
import io.lakesync.status.TableStatus;
import io.lakesync.tiering.TieringTestBase;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A service whose PostgreSQL state freezes (SIGSTOP) keeps tiering: rounds commit within the table's freshness, the
 * status says since when the state database is unreachable, and once it goes on (SIGCONT) the shared activity holds
 * every round this instance ran.
 */
class StateDatabaseStallTest extends TieringTestBase {

    private static final TablePath EVENTS = TablePath.of("fluss", "stall_events");
    private static final Duration FRESHNESS = Duration.ofSeconds(2);
    /** One freshness until the round starts, then its reads and commit, with room for a loaded machine. */
    private static final Duration COMMITS_WITHIN = FRESHNESS.plus(Duration.ofSeconds(8));
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension static PostgresServer postgres = PostgresServer.ownServer();

    @Test
    void roundsCommitWithinFreshnessWhileTheStateDatabaseIsFrozen() throws Exception {
        String stateUrl = postgres.newDatabase();
        try (LakeSyncServer server = LakeSyncServer.start(serviceConfig("stall", Map.of(
                        "service.port", "0",
                        "state.jdbc-url", stateUrl,
                        "state.jdbc-user", PostgresServer.SUPERUSER,
                        "state.jdbc-password", PostgresServer.PASSWORD,
                        "state.connect-timeout", "1s",
                        "state.query-timeout", "2s",
                        "status.refresh-interval", "500ms",
                        "cluster.heartbeat-interval", "500ms")));
                StateStore state = postgres.open(stateUrl, Clock.systemUTC())) {
            createTable(EVENTS, idTable(1, FRESHNESS.toSeconds() + "s"));
            append(EVENTS, ids(0, 100));
            awaitTiered(EVENTS);
            eventually(WAIT, () -> assertThat(roundsOnBoard(state)).isPositive());

            postgres.pause();
            long roundsDuringStop;
            try {
                for (int batch = 1; batch <= 3; batch++) {
                    append(EVENTS, ids(batch * 100, batch * 100 + 100));
                    long written = System.nanoTime();
                    awaitTieredWithin(COMMITS_WITHIN);
                    assertThat(Duration.ofNanos(System.nanoTime() - written)).as("batch %d in the lake", batch)
                            .isLessThan(COMMITS_WITHIN);
                }
                eventually(WAIT, () -> assertThat(server.status().problems())
                        .anySatisfy(problem -> assertThat(problem).startsWith("State database unreachable since ")));
                TableStatus during = server.status().table(EVENTS).orElseThrow();
                assertThat(during.reason()).contains("State database unreachable since ");
                roundsDuringStop = during.activity().rounds();
            } finally {
                postgres.resume();
            }

            eventually(WAIT, () -> {
                assertThat(server.status().problems()).noneSatisfy(p -> assertThat(p).startsWith("State database"));
                assertThat(roundsOnBoard(state)).isGreaterThanOrEqualTo(roundsDuringStop)
                        .isEqualTo(server.status().table(EVENTS).orElseThrow().activity().rounds());
            });
            assertThat(readLake(EVENTS, "id")).hasSize(400);
        }
    }

    private static void awaitTieredWithin(Duration limit) throws Exception {
        var ends = endOffsets(EVENTS);
        eventually(limit, () -> assertThat(admin.getReadableLakeSnapshot(EVENTS).get().getTableBucketsOffset())
                .containsAllEntriesOf(ends));
    }

    private static long roundsOnBoard(StateStore state) {
        return state.read(sql -> sql.queryFirst("SELECT rounds FROM table_activity WHERE table_name = ?",
                row -> row.getLong(1), EVENTS.toString())).orElse(0L);
    }
}
