package io.lakesync.tiering.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.tiering.TieringTestBase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link ClientWarmUp} against a real cluster: bounded, read-only, lake tables only. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ClientWarmUpTest extends TieringTestBase {

    private static final Clock FROZEN = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    @Test
    void sendsItsBudgetAboutTheLakeTablesOnlyAndLeavesThemUntiered() throws Exception {
        TablePath log = TablePath.of("fluss", "warm_log");
        TablePath partitioned = TablePath.of("fluss", "warm_partitioned");
        TablePath notLake = TablePath.of("fluss", "warm_not_lake");
        createTable(log, idTable(3, "1h"));
        createTable(partitioned, lakeTable(partitionedSchema(), 2, "1h").partitionedBy("day").build());
        createTable(notLake, TableDescriptor.builder()
                .schema(org.apache.fluss.metadata.Schema.newBuilder()
                        .column("id", org.apache.fluss.types.DataTypes.BIGINT())
                        .build())
                .distributedBy(1, "id")
                .build());
        append(log, ids(0, 10));

        ClientWarmUp.Result result = new ClientWarmUp(fluss, 64, 60, 4, Duration.ofMinutes(1), FROZEN).run();

        assertThat(result.tables()).as("the two lake tables, not the other one").isEqualTo(2);
        // 3 tables looked at, then requests in threes (info, lake snapshot, offsets) until the budget is reached.
        assertThat(result.requests()).isBetween(60, 62);
        assertThat(result.failed()).as("no lake snapshot yet: that request fails, as expected").isPositive();
        assertThatThrownBy(() -> admin.getLatestLakeSnapshot(log).get())
                .as("nothing was tiered")
                .hasMessageContaining("snapshot");
        assertThat(admin.listOffsets(log, java.util.List.of(0, 1, 2), new org.apache.fluss.client.admin.OffsetSpec.LatestSpec())
                        .all().get().values().stream().mapToLong(Long::longValue).sum())
                .isEqualTo(10);
    }

    @Test
    void stopsAtItsTimeLimitAndAtTheTableCap() throws Exception {
        createTable(TablePath.of("fluss", "warm_capped"), idTable(1, "1h"));

        ClientWarmUp.Result timedOut = new ClientWarmUp(fluss, 64, 1_000, 4, Duration.ZERO, FROZEN).run();
        assertThat(timedOut.requests()).isZero();

        ClientWarmUp.Result capped = new ClientWarmUp(fluss, 1, 10, 1, Duration.ofMinutes(1), FROZEN).run();
        assertThat(capped.tables()).isEqualTo(1);
        assertThat(capped.requests()).isBetween(10, 12);
    }

    private static org.apache.fluss.metadata.Schema partitionedSchema() {
        return org.apache.fluss.metadata.Schema.newBuilder()
                .column("id", org.apache.fluss.types.DataTypes.BIGINT())
                .column("day", org.apache.fluss.types.DataTypes.STRING())
                .build();
    }
}
