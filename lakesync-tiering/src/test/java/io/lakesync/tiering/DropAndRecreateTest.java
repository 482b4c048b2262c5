package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.tiering.round.RoundStage;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.TablePath;
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
        createTable(VICTIM, idTable(2, "1s"));
        long droppedId = admin.getTableInfo(VICTIM).get().getTableId();
        createTable(BYSTANDER, idTable(2, "1s"));
        append(VICTIM, ids(0, 1_000));
        append(BYSTANDER, ids(0, 1_000));

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
                // The dropped table's only: the re-created one may be held when the service stops, and that
                // hand-back is reported as a failure too.
                if (assignment.tableId() == droppedId) {
                    victimFailures.incrementAndGet();
                }
            }
        };
        try (TieringService service =
                new TieringService(serviceConfig("recreate-instance", Map.of()), listener, hooks, Clock.systemUTC())) {
            service.start();
            assertThat(victimWritten.await(60, TimeUnit.SECONDS)).isTrue();
            admin.dropTable(VICTIM, false).get();
            createTable(VICTIM, idTable(2, "1s"));
            // A fresh connection: the shared one may still route the name to the dropped table's id.
            try (Connection fresh = ConnectionFactory.createConnection(cluster.clientConfiguration());
                    Table table = fresh.getTable(VICTIM)) {
                AppendWriter writer = table.newAppend().createWriter();
                ids(5_000, 5_300).forEach(writer::append);
                writer.flush();
            }
            release.countDown();

            append(BYSTANDER, ids(1_000, 2_000));
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
}
