package io.lakesync.usage;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.state.StateStore;
import io.lakesync.state.StateStoreException;
import io.lakesync.tiering.capacity.RoundUsage;
import io.lakesync.fluss.tiering.TableAssignment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The meter on a real SQLite state: rounds summed per table and hour, written at once, nothing lost when a write
 * fails and nothing counted twice when a commit succeeds but reports an error.
 */
class UsageMeterTest {

    private static final Instant HOUR = Instant.parse("2026-11-30T22:00:00Z");
    private static final TableAssignment ORDERS = new TableAssignment(7, TablePath.of("sales", "orders"), 1);

    @TempDir Path dir;

    @Test
    void roundsAreSummedPerTableAndHourAndAFailedWriteIsKeptForTheNext() throws Exception {
        try (StateStore store = StateStore.open("jdbc:sqlite:" + dir.resolve("state.db"), "", "", Clock.systemUTC());
                UsageMeter meter = new UsageMeter(store, dir.resolve("unwritten"))) {
            store.write(sql -> sql.update("ALTER TABLE table_usage RENAME TO table_usage_away"));
            meter.roundMeasured(round(HOUR.plusSeconds(10), 2_000_000_000L, 100));
            meter.roundMeasured(round(HOUR.plusSeconds(20), 1_000_000_000L, 50));
            meter.roundMeasured(round(HOUR.plusSeconds(3600), 500_000_000L, 0));

            meter.flush();

            store.write(sql -> sql.update("ALTER TABLE table_usage_away RENAME TO table_usage"));
            meter.roundMeasured(round(HOUR.plusSeconds(30), 1_000_000_000L, 25));
            meter.flush();
            List<HourlyUsage> stored = new UsageRepository(store).between(HOUR, HOUR.plus(Duration.ofHours(2)));

            assertThat(stored).hasSize(2);
            HourlyUsage first = stored.get(0);
            assertThat(first.hour()).isEqualTo(HOUR);
            assertThat(first.database() + "." + first.table()).isEqualTo("sales.orders");
            assertThat(first.rounds()).isEqualTo(3);
            assertThat(first.cpuSeconds()).isEqualTo(4.0);
            assertThat(first.cuHours()).isEqualTo(4.0 / 3600);
            assertThat(first.rows()).isEqualTo(175);
            assertThat(stored.get(1).hour()).isEqualTo(HOUR.plusSeconds(3600));
            assertThat(stored.get(1).rounds()).isEqualTo(1);
        }
    }

    @Test
    void aRoundIsWrittenAtOnceNotHeldUntilAFlush() throws Exception {
        try (StateStore store = StateStore.open("jdbc:sqlite:" + dir.resolve("state.db"), "", "", Clock.systemUTC());
                UsageMeter meter = new UsageMeter(store, dir.resolve("unwritten"))) {
            meter.roundMeasured(round(HOUR.plusSeconds(10), 1_000_000_000L, 100));

            // Well within the retry interval: an instance that crashes a moment after its round still billed it.
            eventually(UsageMeter.RETRY_INTERVAL.dividedBy(2), () -> assertThat(
                    new UsageRepository(store).between(HOUR, HOUR.plus(Duration.ofHours(1))))
                    .singleElement().satisfies(usage -> assertThat(usage.rows()).isEqualTo(100)));
        }
    }

    @Test
    void aBatchWhoseCommitSucceededButReportedAnErrorIsCountedOnce() throws Exception {
        try (StateStore store = StateStore.open("jdbc:sqlite:" + dir.resolve("state.db"), "", "", Clock.systemUTC())) {
            AtomicBoolean answerLost = new AtomicBoolean(true);
            try (UsageMeter meter = new UsageMeter(
                    answerLostAfterCommit(store, answerLost, new AtomicBoolean()), new UsageSpool(dir.resolve("unwritten")))) {
                meter.roundMeasured(round(HOUR.plusSeconds(10), 1_000_000_000L, 100));
                meter.flush();
                meter.roundMeasured(round(HOUR.plusSeconds(20), 1_000_000_000L, 50));
            }

            assertThat(answerLost).as("the first write reported an error").isFalse();
            assertCountedOnce(store);
        }
    }

    @Test
    void usageWaitingForTheStoreOutlivesACrashAndIsCountedOnce() throws Exception {
        Path spool = dir.resolve("usage").resolve("unwritten");
        Path onDiskAtCrash = dir.resolve("at-crash");
        try (StateStore store = StateStore.open("jdbc:sqlite:" + dir.resolve("state.db"), "", "", Clock.systemUTC())) {
            AtomicBoolean answerLost = new AtomicBoolean(true);
            AtomicBoolean storeAway = new AtomicBoolean(true);
            try (UsageMeter crashing = new UsageMeter(
                    answerLostAfterCommit(store, answerLost, storeAway), new UsageSpool(spool))) {
                crashing.roundMeasured(round(HOUR.plusSeconds(10), 1_000_000_000L, 100));
                crashing.flush();
                crashing.roundMeasured(round(HOUR.plusSeconds(20), 1_000_000_000L, 50));
                // The instance dies here: what its next start finds is what is on disk now.
                Files.copy(spool, onDiskAtCrash);
            }

            try (UsageMeter restarted = new UsageMeter(store, onDiskAtCrash)) {
                restarted.flush();
            }

            assertThat(answerLost).as("the first write reported an error").isFalse();
            assertCountedOnce(store);
            assertThat(onDiskAtCrash).as("all written: nothing left for the next start").doesNotExist();
        }
    }

    /**
     * The one fault not caused for real: the first write commits and its answer does not reach lakesync; after
     * that, while {@code storeAway}, writes fail without reaching the store.
     */
    private static UsageRepository answerLostAfterCommit(StateStore store, AtomicBoolean answerLost,
            AtomicBoolean storeAway) {
        return new UsageRepository(store) {
            @Override
            boolean add(UsageBatch batch) {
                if (!answerLost.get() && storeAway.get()) {
                    throw new StateStoreException("State database failed: Connection refused");
                }
                boolean added = super.add(batch);
                if (answerLost.getAndSet(false)) {
                    throw new StateStoreException("State database failed: An I/O error occurred (after commit)");
                }
                return added;
            }
        };
    }

    /** The two rounds of 100 and 50 rows, each counted once. */
    private static void assertCountedOnce(StateStore store) {
        assertThat(new UsageRepository(store).between(HOUR, HOUR.plus(Duration.ofHours(1))))
                .singleElement().satisfies(usage -> {
                    assertThat(usage.rounds()).isEqualTo(2);
                    assertThat(usage.rows()).isEqualTo(150);
                    assertThat(usage.cpuSeconds()).isEqualTo(2.0);
                });
    }

    private static RoundUsage round(Instant endedAt, long cpuNanos, long rows) {
        // Rounds longer than their CPU time, so their CU-seconds are their CPU seconds (see ComputeUnit).
        return new RoundUsage(ORDERS, endedAt, Duration.ofSeconds(10), cpuNanos, 0, 0, rows, rows * 10);
    }
}
