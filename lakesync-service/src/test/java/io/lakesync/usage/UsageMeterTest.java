package io.lakesync.usage;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.state.StateStore;
import io.lakesync.tiering.capacity.RoundUsage;
import io.lakesync.tiering.coordinator.TableAssignment;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The meter on a real SQLite state: rounds summed per table and hour, and nothing lost when a write fails. */
class UsageMeterTest {

    private static final Instant HOUR = Instant.parse("2026-11-30T22:00:00Z");
    private static final TableAssignment ORDERS = new TableAssignment(7, TablePath.of("sales", "orders"), 1);

    @TempDir Path dir;

    @Test
    void roundsAreSummedPerTableAndHourAndAFailedWriteIsKeptForTheNext() throws Exception {
        try (StateStore store = StateStore.open("jdbc:sqlite:" + dir.resolve("state.db"), "", "", Clock.systemUTC());
                UsageMeter meter = new UsageMeter(store)) {
            meter.roundMeasured(round(HOUR.plusSeconds(10), 2_000_000_000L, 100));
            meter.roundMeasured(round(HOUR.plusSeconds(20), 1_000_000_000L, 50));
            meter.roundMeasured(round(HOUR.plusSeconds(3600), 500_000_000L, 0));
            store.write(sql -> sql.update("ALTER TABLE table_usage RENAME TO table_usage_away"));

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

    private static RoundUsage round(Instant endedAt, long cpuNanos, long rows) {
        return new RoundUsage(ORDERS, endedAt, Duration.ofSeconds(1), cpuNanos, 0, 0, rows, rows * 10);
    }
}
