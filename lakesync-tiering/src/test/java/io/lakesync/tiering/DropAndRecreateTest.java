package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.coordinator.TableAssignment;
import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.tiering.round.RoundStage;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * A table dropped and re-created under the same name while its round is writing: the old round never
 * commits into the new table, the new table is tiered from scratch, and the other tables keep syncing.
 */
class DropAndRecreateTest extends TieringTestBase {

    private static final TablePath VICTIM = TablePath.of("fluss", "recreated");
    private static final TablePath BYSTANDER = TablePath.of("fluss", "bystander");

    @Test
    void droppedTableIsAbandonedAndOthersKeepSyncing() throws Exception {
        createTable(VICTIM, descriptor());
        createTable(BYSTANDER, descriptor());
        append(VICTIM, rows(0, 1_000));
        append(BYSTANDER, rows(0, 1_000));

        CountDownLatch victimWritten = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger victimFailures = new AtomicInteger();
        RoundHooks hooks = (stage, assignment) -> {
            if (stage == RoundStage.DATA_WRITTEN && assignment.tablePath().equals(VICTIM) && victimWritten.getCount() > 0) {
                victimWritten.countDown();
                release.await(60, TimeUnit.SECONDS);
            }
        };
        TieringListener listener = new TieringListener() {
            @Override
            public void roundFailed(TableAssignment assignment, Throwable cause, FailureKind kind, Duration retryIn) {
                if (assignment.tablePath().equals(VICTIM)) {
                    victimFailures.incrementAndGet();
                }
            }
        };
        try (TieringService service =
                new TieringService(serviceConfig("recreate-instance", Map.of()), listener, hooks, Clock.systemUTC())) {
            service.start();
            assertThat(victimWritten.await(60, TimeUnit.SECONDS)).isTrue();
            admin.dropTable(VICTIM, false).get();
            createTable(VICTIM, descriptor());
            append(VICTIM, rows(5_000, 5_300));
            release.countDown();

            append(BYSTANDER, rows(1_000, 2_000));
            awaitTiered(BYSTANDER);
            awaitTiered(VICTIM);
        }
        assertThat(readLake(VICTIM, "id")).extracting(r -> (Long) r.get(0))
                .as("only the re-created table's rows")
                .hasSize(300)
                .allSatisfy(id -> assertThat(id).isBetween(5_000L, 5_299L));
        assertThat(readLake(BYSTANDER, "id")).hasSize(2_000);
        assertThat(victimFailures.get()).as("the dropped table is given up, not retried in a loop").isLessThanOrEqualTo(1);
    }

    private static TableDescriptor descriptor() {
        return TableDescriptor.builder()
                .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
                .distributedBy(2, "id")
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "1s")
                .build();
    }

    private static List<InternalRow> rows(long from, long to) {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.of(id));
        }
        return rows;
    }
}
