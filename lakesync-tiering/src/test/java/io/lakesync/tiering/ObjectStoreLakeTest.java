package io.lakesync.tiering;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.lake.CommitSafety;
import io.lakesync.tiering.maintenance.MaintenanceReport;
import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.tiering.round.RoundStage;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.metadata.PartitionSpec;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The lake on an object store: the local stack with {@code local.lake = s3} puts the warehouse on a real
 * S3-compatible server (signed HTTP requests, no rename, no directories), and a log, a primary-key and a
 * partitioned table tier into it through a service killed hard in the middle of a round and restarted: every row
 * lands exactly once, and maintenance (compaction, snapshot expiry) runs on the object store too.
 */
class ObjectStoreLakeTest extends TieringTestBase {

    private static final TablePath CLICKS = TablePath.of("fluss", "s3_clicks");
    private static final TablePath ORDERS = TablePath.of("fluss", "s3_orders");
    private static final TablePath EVENTS = TablePath.of("fluss", "s3_events");
    private static final int CLICK_ROWS = 20_000;
    /** The killed service and its restart share an instance (its data folder): the restart resumes its tables. */
    private static final String INSTANCE = "s3-instance";

    @BeforeAll
    public static void startCluster() throws Exception {
        startCluster(Map.of("local.lake", "s3"));
    }

    @Test
    void tablesTierIntoS3ExactlyOnceThroughAHardKillAndAreMaintainedThere() throws Exception {
        assertThat(cluster.warehouseLocation()).isEqualTo("s3://lake/warehouse");
        assertThat(lake.commitSafety()).isEqualTo(CommitSafety.IN_PROCESS_LOCK_ONLY);

        createTable(CLICKS, idTable(4, "1s"));
        append(CLICKS, ids(0, CLICK_ROWS));
        KeyedStatuses orders = new KeyedStatuses(ORDERS);
        createTable(ORDERS, KeyedStatuses.table(2, "1s")
                .customProperty("lakesync.maintenance.compaction.min-files", "2")
                .customProperty("lakesync.maintenance.full-compaction-interval", "0s")
                .customProperty("lakesync.maintenance.snapshot.num-retained-min", "2")
                .build());
        orders.put(0, 2_000, "new");
        orders.put(500, 1_500, "paid");
        orders.delete(0, 100);
        createTable(EVENTS, TableDescriptor.builder()
                .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).column("dt", DataTypes.STRING()).build())
                .partitionedBy("dt")
                .distributedBy(2)
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "1s")
                .build());
        for (String day : List.of("2026-12-01", "2026-12-02")) {
            admin.createPartition(EVENTS, new PartitionSpec(Map.of("dt", day)), false).get();
        }
        append(EVENTS, events("2026-12-01", 0, 3_000));
        append(EVENTS, events("2026-12-02", 3_000, 5_000));

        // The first service writes the log table's data files to S3 and dies before committing them.
        Process child = TieringProcessMain.startChild(
                serviceConfig(INSTANCE, Map.of("tiering.warm-up", "false")),
                List.of("--halt-table=" + CLICKS.getTableName(), "--halt-at=" + RoundStage.DATA_WRITTEN, "--halt-delay-ms=0"),
                root.resolve("child-s3.log"));
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("child process halted").isTrue();
        assertThat(child.exitValue()).isEqualTo(TieringProcessMain.HALT_EXIT_CODE);

        Map<TablePath, MaintenanceReport> reports = new ConcurrentHashMap<>();
        TieringListener maintained = new TieringListener() {
            @Override
            public void maintained(MaintenanceReport report) {
                reports.put(report.tablePath(), report);
            }
        };
        try (TieringService restarted = new TieringService(serviceConfig(INSTANCE, Map.of("tiering.warm-up", "false",
                "maintenance.interval", "100ms",
                "maintenance.snapshot.time-retained", "1s")), maintained, RoundHooks.NONE, Clock.systemUTC())) {
            restarted.start();
            awaitTiered(CLICKS);
            awaitTiered(EVENTS);
            for (int round = 0; round < 2; round++) {
                orders.put(2_000 + round * 100, 2_100 + round * 100, "round-" + round);
                awaitTiered(ORDERS);
            }
            // Each committed round may start a pass; the next tick's round keeps them coming.
            eventually(SYNC_TIMEOUT, () -> {
                orders.put(0, 1, "tick-" + System.nanoTime());
                awaitTiered(ORDERS);
                MaintenanceReport report = reports.get(ORDERS);
                assertThat(report).as("a maintenance pass of %s", ORDERS).isNotNull();
                assertThat(report.problem()).isNull();
                assertThat(report.lastCompaction()).as("compacted on S3").isNotNull();
                assertThat(report.lastExpiry()).as("snapshots expired on S3").isNotNull();
            });
            assertThat(lake.load(ORDERS).snapshotManager().earliestSnapshotId()).isGreaterThan(1L);
            awaitTiered(ORDERS);
        }

        List<Object> clickIds = readLake(CLICKS, "id").stream().map(r -> r.get(0)).toList();
        assertThat(clickIds).hasSize(CLICK_ROWS).doesNotHaveDuplicates();
        List<Object> eventIds = readLake(EVENTS, "id").stream().map(r -> r.get(0)).toList();
        assertThat(eventIds).hasSize(5_000).doesNotHaveDuplicates();
        assertThat(readLakeByKey(ORDERS, "order_id", "status")).isEqualTo(orders.expected());
    }

    private static List<InternalRow> events(String day, long from, long to) {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString(day)));
        }
        return rows;
    }
}
