package io.lakesync.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.state.BatchedWriter;
import io.lakesync.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The writer between the engines and the activity board: events wait, merged per table, while the board fails; a
 * batch whose write committed but reported an error is not applied twice; what waits is shown on top of the board.
 */
class BufferedActivityTest {

    private static final Instant T0 = Instant.parse("2026-12-06T10:00:00Z");

    private final ManualClock clock = new ManualClock(T0);
    private final FlakyBoard board = new FlakyBoard();

    @Test
    void eventsBufferedWhileTheBoardFailsAreWrittenOnceAfterwards() throws Exception {
        try (BatchedWriter<ActivityChange> writer = new BatchedWriter<>("table activity", board::apply,
                ActivityChange::then, BatchedWriter.Keeper.none(), null, Map.of(), Duration.ofHours(1), clock)) {
            board.failing = true;
            for (int round = 0; round < 100; round++) {
                writer.add("shop.orders", ActivityChange.started());
                writer.add("shop.orders", ActivityChange.succeeded(10, 100, 1, Duration.ofSeconds(1), T0));
            }
            writer.add("shop.users", ActivityChange.started());
            assertThat(writer.flush()).isFalse();
            assertThat(writer.failingSince()).isEqualTo(T0);

            board.failing = false;
            board.failAfterCommit = true;
            assertThat(writer.flush()).as("the commit went through, but the writer heard an error").isFalse();
            board.failAfterCommit = false;
            writer.add("shop.orders", ActivityChange.started());
            assertThat(withWaiting(writer).get("shop.orders").syncing()).as("what waits is shown").isTrue();
            assertThat(writer.flush()).isTrue();
            assertThat(writer.failingSince()).isNull();

            EngineActivity orders = board.get("shop.orders").orElseThrow();
            assertThat(orders.rounds()).isEqualTo(100);
            assertThat(orders.rowsTiered()).isEqualTo(1000);
            assertThat(orders.syncing()).isTrue();
            assertThat(orders.holder()).isEqualTo("here");
            assertThat(board.get("shop.users").orElseThrow().syncing()).isTrue();
            assertThat(withWaiting(writer)).isEqualTo(board.all());
        }
    }

    private Map<String, EngineActivity> withWaiting(BatchedWriter<ActivityChange> writer) {
        return writer.readWithWaiting(board::all,
                (onBoard, waiting) -> ActivityChange.applyAll(onBoard, waiting, board.self()));
    }

    /** An in-memory board that refuses writes while {@link #failing}, or reports an error after one that went in. */
    private static final class FlakyBoard implements ActivityBoard {
        private final ActivityBoard board = ActivityBoard.inMemory("here");
        volatile boolean failing;
        volatile boolean failAfterCommit;

        @Override
        public String self() {
            return board.self();
        }

        @Override
        public Optional<EngineActivity> get(String table) {
            return board.get(table);
        }

        @Override
        public boolean apply(String batchKey, Map<String, ActivityChange> changes) {
            if (failing) {
                throw new IllegalStateException("connection refused");
            }
            boolean applied = board.apply(batchKey, changes);
            if (failAfterCommit) {
                throw new IllegalStateException("connection reset after the commit");
            }
            return applied;
        }

        @Override
        public Map<String, EngineActivity> all() {
            return board.all();
        }

        @Override
        public void forget(Set<String> dropped, Instant listedAt) {
            board.forget(dropped, listedAt);
        }
    }
}
