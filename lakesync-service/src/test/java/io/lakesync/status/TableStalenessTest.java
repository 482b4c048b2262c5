package io.lakesync.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.testing.ManualClock;
import io.lakesync.fluss.Deadline;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

/**
 * The staleness rules of {@link TableStatusTracker} with a manual clock. The observer is scripted here, because
 * only the timing is under test; the real observer against a real cluster is covered by
 * {@code TableStatusTrackerTest} and {@code FlussRestartTest}.
 */
class TableStalenessTest {

    private static final Instant T0 = Instant.parse("2026-11-30T19:09:41Z");
    private static final TablePath IDLE = TablePath.of("fluss", "idle");
    private static final TablePath LAGGING = TablePath.of("fluss", "lagging");
    private static final Duration INTERVAL = Duration.ofSeconds(5);

    private final ManualClock clock = new ManualClock(T0);
    private final ScriptedObserver observer = new ScriptedObserver();
    private final TableStatusTracker tracker =
            new TableStatusTracker(observer, clock, () -> true, 100, Duration.ofSeconds(1), INTERVAL.multipliedBy(3));

    @Test
    void anUnobservableTableStaysListedStaleThenTurnsUnknownAndRecovers() {
        observer.tables.put(IDLE, null);
        observer.tables.put(LAGGING, null);
        tracker.refresh();
        assertThat(state(IDLE)).isEqualTo(TableState.UP_TO_DATE);
        assertThat(state(LAGGING)).isEqualTo(TableState.LAGGING);

        clock.advance(INTERVAL);
        observer.tables.put(IDLE, new ConnectException("Connection refused: /127.0.0.1:41234"));
        observer.tables.put(LAGGING, new ConnectException("Connection refused: /127.0.0.1:41234"));
        tracker.refresh();

        TableStatus idle = assertUnknownSinceSecondRefresh(IDLE, "Connection refused: /127.0.0.1:41234");
        assertThat(idle.lakeSnapshotId()).as("last known figures kept").isEqualTo(4L);
        TableStatus lagging = tracker.table(LAGGING).orElseThrow();
        assertThat(lagging.state()).as("kept within the limit").isEqualTo(TableState.LAGGING);
        assertThat(lagging.stale()).isTrue();
        assertThat(lagging.reason()).startsWith("Cannot observe the table since 19:09:46 UTC").contains("Before: Sync latency");

        clock.advance(INTERVAL.multipliedBy(2));
        tracker.refresh();
        assertThat(state(LAGGING)).as("15 s since the last observation: not past the limit yet").isEqualTo(TableState.LAGGING);
        clock.advance(Duration.ofMillis(1));
        tracker.refresh();
        assertThat(state(LAGGING)).isEqualTo(TableState.UNKNOWN);
        assertThat(tracker.table(LAGGING).orElseThrow().reason()).contains("since 19:09:46 UTC");
        assertThat(tracker.history(LAGGING)).extracting(HistoryPoint::state).containsExactly(
                TableState.LAGGING, TableState.LAGGING, TableState.LAGGING, TableState.UNKNOWN);
        assertThat(tracker.problems()).containsExactly("2 table(s) UNKNOWN: fluss.idle, fluss.lagging");

        observer.tables.put(IDLE, null);
        observer.tables.put(LAGGING, null);
        clock.advance(INTERVAL);
        tracker.refresh();
        assertThat(state(IDLE)).isEqualTo(TableState.UP_TO_DATE);
        assertThat(tracker.table(IDLE).orElseThrow().stale()).isFalse();
        assertThat(tracker.history(IDLE)).hasSize(5);
        assertThat(tracker.problems()).isEmpty();
    }

    @Test
    void whenFlussCannotListTablesEveryKnownTableIsMarkedAndNoneIsDropped() {
        observer.tables.put(IDLE, null);
        tracker.refresh();
        observer.listFailure = new ConnectException("Connection refused: /127.0.0.1:9123");
        clock.advance(INTERVAL);
        tracker.refresh();

        assertThat(tracker.tables()).extracting(TableStatus::name).containsExactly("fluss.idle");
        assertThat(state(IDLE)).isEqualTo(TableState.UNKNOWN);
        assertThat(tracker.problems()).hasSize(2).first().asString()
                .startsWith("Cannot reach Fluss since 2026-11-30T19:09:46Z: Connection refused: /127.0.0.1:9123");

        observer.listFailure = null;
        observer.tables.remove(IDLE);
        tracker.refresh();
        assertThat(tracker.tables()).as("dropped once Fluss lists the tables without it").isEmpty();
    }

    @Test
    void afterATableRanOutOfTimeTheRestAreNotTriedInThatRefresh() {
        observer.tables.put(IDLE, null);
        observer.tables.put(LAGGING, null);
        tracker.refresh();
        observer.tables.put(IDLE, new TimeoutException("Fluss (table info of fluss.idle) did not answer within 1000 ms"));
        observer.observed.clear();
        clock.advance(INTERVAL);
        tracker.refresh();

        assertThat(observer.observed).containsExactly(IDLE);
        assertThat(tracker.table(LAGGING).orElseThrow().reason()).contains("not tried in this refresh after an "
                + "earlier table's observation ran out of time ('status.call-timeout'): Fluss (table info of "
                + "fluss.idle) did not answer within 1000 ms");
        assertThat(tracker.table(LAGGING).orElseThrow().stale()).isTrue();
    }

    @Test
    void aTableNeverObservedIsListedAsUnknown() {
        observer.tables.put(IDLE, new ConnectException("Connection refused"));
        tracker.refresh();
        TableStatus status = tracker.table(IDLE).orElseThrow();
        assertThat(status.state()).isEqualTo(TableState.UNKNOWN);
        assertThat(status.reason()).endsWith("Never observed yet.");
    }

    @Test
    void whenTheLakeDoesNotAnswerATableIsUnknownAndStaleAsWhenFlussDoesNot() {
        observer.tables.put(IDLE, null);
        tracker.refresh();
        observer.lakeFailure = new IllegalStateException("warehouse unavailable");
        clock.advance(INTERVAL);
        tracker.refresh();

        assertUnknownSinceSecondRefresh(IDLE, "the lake does not answer: warehouse unavailable");
        assertThat(tracker.problems()).containsExactly(
                "Cannot reach the lake since 2026-11-30T19:09:46Z: warehouse unavailable", "1 table(s) UNKNOWN: fluss.idle");

        observer.lakeFailure = null;
        clock.advance(INTERVAL);
        tracker.refresh();
        assertThat(state(IDLE)).isEqualTo(TableState.UP_TO_DATE);
        assertThat(tracker.problems()).isEmpty();
    }

    @Test
    void whenTheStateDatabaseDoesNotAnswerFlussAndTheLakeAreStillObservedWithTheSwitchAsLastRead() {
        UnreachableState state = new UnreachableState();
        try (TableStatusTracker tracker = new TableStatusTracker(observer, state, 1, clock, state::serviceEnabled, 100,
                Duration.ofSeconds(1), INTERVAL.multipliedBy(3))) {
            observer.tables.put(IDLE, null);
            observer.tables.put(LAGGING, null);
            tracker.refresh();
            state.down = true;
            clock.advance(INTERVAL);
            observer.observed.clear();
            tracker.refresh();

            assertThat(observer.observed).as("observed all the same").containsExactlyInAnyOrder(IDLE, LAGGING);
            TableStatus idle = tracker.table(IDLE).orElseThrow();
            assertThat(idle.stale()).isFalse();
            assertThat(idle.observedAt()).isEqualTo(T0.plus(INTERVAL));
            assertThat(idle.state()).isEqualTo(TableState.UP_TO_DATE);
            String unreachable = "State database unreachable since 2026-11-30T19:09:46Z: connection refused (showing the "
                    + "service switch as last read, on, and the activity this instance knows)";
            assertThat(idle.reason()).isEqualTo("Everything in Fluss is in the lake. " + unreachable);
            assertThat(tracker.problems()).containsExactly(unreachable);

            state.down = false;
            clock.advance(INTERVAL);
            tracker.refresh();
            assertThat(tracker.table(IDLE).orElseThrow().reason()).isEqualTo("Everything in Fluss is in the lake.");
            assertThat(tracker.problems()).isEmpty();
        }
    }

    /**
     * Asserts that {@code path}, observed at the first refresh and not at the second, is UNKNOWN (never UP_TO_DATE
     * without an observation) with its figures of the first marked stale, and {@code error} as the reason.
     */
    private TableStatus assertUnknownSinceSecondRefresh(TablePath path, String error) {
        TableStatus status = tracker.table(path).orElseThrow();
        assertThat(status.state()).isEqualTo(TableState.UNKNOWN);
        assertThat(status.stale()).isTrue();
        assertThat(status.observedAt()).isEqualTo(T0);
        assertThat(status.reason())
                .isEqualTo("Cannot observe the table since 19:09:46 UTC: " + error + " Last observed 19:09:41 UTC.");
        return status;
    }

    private TableState state(TablePath path) {
        return tracker.table(path).orElseThrow().state();
    }

    /** A board and service switch in the state database, which stops answering while {@link #down}. */
    private static final class UnreachableState implements ActivityBoard {
        private final ActivityBoard board = ActivityBoard.inMemory("local");
        volatile boolean down;

        boolean serviceEnabled() {
            answer();
            return true;
        }

        private void answer() {
            if (down) {
                throw new IllegalStateException("connection refused");
            }
        }

        @Override
        public String self() {
            return board.self();
        }

        @Override
        public Optional<EngineActivity> get(String table) {
            answer();
            return board.get(table);
        }

        @Override
        public boolean apply(String batchKey, Map<String, ActivityChange> changes) {
            answer();
            return board.apply(batchKey, changes);
        }

        @Override
        public Map<String, EngineActivity> all() {
            answer();
            return board.all();
        }

        @Override
        public void forget(Set<String> dropped, Instant listedAt) {
            answer();
            board.forget(dropped, listedAt);
        }
    }

    /** Observes the scripted tables: null means fine (the idle one up to date, the lagging one lagging). */
    private final class ScriptedObserver implements TableObserver {
        final Map<TablePath, Exception> tables = new HashMap<>();
        final List<TablePath> observed = new ArrayList<>();
        Exception listFailure;
        Exception lakeFailure;

        @Override
        public List<TablePath> listTables(Deadline deadline) throws Exception {
            if (listFailure != null) {
                throw listFailure;
            }
            List<TablePath> paths = new ArrayList<>(tables.keySet());
            paths.sort(java.util.Comparator.comparing(TablePath::toString));
            return paths;
        }

        @Override
        public void probeLake(Deadline deadline) throws Exception {
            if (lakeFailure != null) {
                throw lakeFailure;
            }
        }

        @Override
        public TableObservation observe(TablePath path, Deadline deadline) throws Exception {
            observed.add(path);
            if (tables.get(path) != null) {
                throw tables.get(path);
            }
            Instant now = clock.instant();
            boolean lagging = path.equals(LAGGING);
            return new TableObservation(path, 1, true, Duration.ofSeconds(30), 4L, now.minusSeconds(100),
                    List.of(new BucketCheckpoint(null, 0, 100, lagging ? 150 : 100)),
                    lagging ? now.minusSeconds(90) : null, now);
        }
    }
}
