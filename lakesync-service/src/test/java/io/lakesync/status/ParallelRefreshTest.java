package io.lakesync.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.fluss.Deadline;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

/**
 * A refresh observes tables in parallel on a bounded pool: many tables whose observation is slow (a pending table's
 * probe of its oldest record) refresh within the interval instead of one after another. The observer is a fake:
 * only the scheduling is under test; the real observer is covered by {@link TableStatusTrackerTest}.
 */
class ParallelRefreshTest {

    private static final int PARALLELISM = 16;

    @Test
    void tablesAreObservedAtTheSameTimeButNoMoreThanTheBound() {
        // Every observation waits until the whole first wave runs at once: sequential observing would time out.
        CountDownLatch wave = new CountDownLatch(PARALLELISM);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        TableObserver observer = observer(1000, () -> {
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            wave.countDown();
            try {
                assertThat(wave.await(10, TimeUnit.SECONDS)).as("the others of the wave started meanwhile").isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
        });
        TableStatusTracker tracker = tracker(observer);

        List<TableStatus> statuses = tracker.refresh();

        assertThat(statuses).hasSize(1000).allSatisfy(s -> assertThat(s.stale()).as(s.reason()).isFalse());
        assertThat(mostAtOnce.get()).isEqualTo(PARALLELISM);
        tracker.close();
    }

    @Test
    void aThousandSlowTablesRefreshWithinTheDefaultInterval() {
        // 1,000 tables, a third pending and each of those taking 100 ms to observe: 33 s one after another.
        TableObserver observer = observer(1000, new Runnable() {
            private final AtomicInteger calls = new AtomicInteger();

            @Override
            public void run() {
                if (calls.incrementAndGet() % 3 == 0) {
                    simulateProbe(Duration.ofMillis(100));
                }
            }
        });
        TableStatusTracker tracker = tracker(observer);

        long started = System.nanoTime();
        assertThat(tracker.refresh()).hasSize(1000);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        // 333 probes of 100 ms over 16 threads: about 2.1 s, within the default interval of 5 s.
        assertThat(took).isLessThan(Duration.ofSeconds(5));
        tracker.close();
    }

    private static TableStatusTracker tracker(TableObserver observer) {
        return new TableStatusTracker(observer, ActivityBoard.inMemory("test"), PARALLELISM, Clock.systemUTC(),
                () -> true, 10, Duration.ofSeconds(10), Duration.ofMinutes(1));
    }

    /** The time a remote probe takes; the work being measured, not synchronisation. */
    private static void simulateProbe(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static TableObserver observer(int tables, Runnable eachObservation) {
        List<TablePath> paths = new ArrayList<>();
        for (int i = 0; i < tables; i++) {
            paths.add(TablePath.of("bench", String.format("t%04d", i)));
        }
        return new TableObserver() {
            @Override
            public List<TablePath> listTables(Deadline deadline) {
                return paths;
            }

            @Override
            public void probeLake(Deadline deadline) {}

            @Override
            public TableObservation observe(TablePath path, Deadline deadline) {
                eachObservation.run();
                Instant now = Instant.now();
                return new TableObservation(path, 1, true, Duration.ofSeconds(30), 4L, now.minusSeconds(10),
                        List.of(new BucketCheckpoint(null, 0, 100, 100)), null, now);
            }
        };
    }
}
