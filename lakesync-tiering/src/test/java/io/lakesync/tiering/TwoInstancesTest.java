package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.tiering.round.RoundResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * Two lakesync instances against one cluster: the coordinator spreads the tables, each table is tiered by one
 * instance at a time, no lake snapshot is committed twice, and every row lands exactly once.
 */
class TwoInstancesTest extends TieringTestBase {

    private static final int TABLES = 6;
    private static final int BATCHES = 8;
    private static final int BATCH_ROWS = 2_000;

    /** Round intervals per table: [instance, start, end]. */
    private final Map<String, List<Object[]>> rounds = new ConcurrentHashMap<>();
    private final Map<String, List<Long>> committedSnapshots = new ConcurrentHashMap<>();

    @Test
    void tablesAreSpreadAndEveryRowIsTieredExactlyOnce() throws Exception {
        List<TablePath> tables = new ArrayList<>();
        for (int i = 0; i < TABLES; i++) {
            TablePath path = TablePath.of("fluss", "shared_" + i);
            Schema.Builder schema = Schema.newBuilder().column("id", DataTypes.BIGINT()).column("v", DataTypes.STRING());
            if (i % 2 == 1) {
                schema.primaryKey("id");
            }
            createTable(
                    path,
                    TableDescriptor.builder()
                            .schema(schema.build())
                            .distributedBy(2, "id")
                            .property("table.datalake.enabled", "true")
                            .property("table.datalake.freshness", "1s")
                            .build());
            tables.add(path);
        }
        try (TieringService first = start("instance-a");
                TieringService second = start("instance-b")) {
            for (int batch = 0; batch < BATCHES; batch++) {
                for (int i = 0; i < TABLES; i++) {
                    List<InternalRow> rows = new ArrayList<>();
                    for (long id = (long) batch * BATCH_ROWS; id < (long) (batch + 1) * BATCH_ROWS; id++) {
                        rows.add(GenericRow.of(id, BinaryString.fromString("v" + id)));
                    }
                    if (i % 2 == 1) {
                        upsert(tables.get(i), rows, false);
                    } else {
                        append(tables.get(i), rows);
                    }
                }
                Thread.sleep(300); // pacing the writer across rounds, not synchronisation
            }
            for (TablePath path : tables) {
                awaitTiered(path);
            }
        }

        for (TablePath path : tables) {
            List<List<Object>> rows = readLake(path, "id");
            assertThat(rows).as("rows of %s", path).hasSize(BATCHES * BATCH_ROWS);
            assertThat(rows.stream().map(r -> r.get(0)).distinct().count()).isEqualTo(BATCHES * BATCH_ROWS);
        }
        assertThat(rounds.values().stream().flatMap(List::stream).map(r -> r[0]).distinct())
                .as("both instances tiered")
                .containsExactlyInAnyOrder("instance-a", "instance-b");
        rounds.forEach((table, intervals) -> {
            for (Object[] a : intervals) {
                for (Object[] b : intervals) {
                    if (a != b && !a[0].equals(b[0])) {
                        boolean overlap = ((Instant) a[1]).isBefore((Instant) b[2]) && ((Instant) b[1]).isBefore((Instant) a[2]);
                        assertThat(overlap).as("rounds of %s by two instances overlap", table).isFalse();
                    }
                }
            }
        });
        committedSnapshots.forEach((table, ids) -> assertThat(ids).as("snapshots of %s", table).doesNotHaveDuplicates());
    }

    private TieringService start(String instance) throws Exception {
        Map<String, Instant> started = new ConcurrentHashMap<>();
        TieringListener listener = new TieringListener() {
            @Override
            public void roundStarted(TableAssignment assignment) {
                started.put(assignment.tablePath().toString(), Instant.now());
            }

            @Override
            public void roundFinished(RoundResult result) {
                String table = result.assignment().tablePath().toString();
                record(instance, table, started.get(table));
                if (result.committed()) {
                    committedSnapshots.computeIfAbsent(table, t -> Collections.synchronizedList(new ArrayList<>()))
                            .add(result.lakeSnapshotId());
                }
            }

            @Override
            public void roundFailed(TableAssignment assignment, Throwable cause, FailureKind kind, Duration retryIn) {
                record(instance, assignment.tablePath().toString(), started.get(assignment.tablePath().toString()));
            }
        };
        TieringService service =
                new TieringService(
                        serviceConfig(instance, Map.of("tiering.workers", "2")), listener, RoundHooks.NONE, Clock.systemUTC());
        service.start();
        return service;
    }

    private void record(String instance, String table, Instant start) {
        rounds.computeIfAbsent(table, t -> Collections.synchronizedList(new ArrayList<>()))
                .add(new Object[] {instance, start, Instant.now()});
    }
}
