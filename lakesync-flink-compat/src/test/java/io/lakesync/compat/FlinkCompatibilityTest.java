package io.lakesync.compat;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.local.Eventually.ThrowingRunnable;
import io.lakesync.tiering.TieringService;
import io.lakesync.tiering.TieringTestBase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.Snapshot;
import org.apache.paimon.utils.SnapshotManager;
import org.junit.jupiter.api.Test;

/**
 * lakesync's lake data read and written by Flink as the peer: Fluss's Flink connector union-reads it with the
 * Fluss tail, Fluss's own Flink tiering job writes the same Paimon content, and a table moves from that job
 * to lakesync without losing or doubling a row.
 */
class FlinkCompatibilityTest extends TieringTestBase {

    /** With and without deletion vectors (their readable snapshot is the compacted one lakesync registers). */
    @Test
    void unionReadThroughFlinkMergesLakesyncLakeDataWithTheFlussTail() throws Exception {
        Map<TablePath, Map<Long, String>> tables = new LinkedHashMap<>();
        tables.put(TablePath.of("fluss", "union_orders"), new TreeMap<>());
        tables.put(TablePath.of("fluss", "union_orders_dv"), new TreeMap<>());
        createTable(TablePath.of("fluss", "union_orders"), orders(2, false));
        createTable(TablePath.of("fluss", "union_orders_dv"), orders(2, true));
        for (Map.Entry<TablePath, Map<Long, String>> table : tables.entrySet()) {
            put(table.getKey(), 0, 1_000, "new", table.getValue());
            delete(table.getKey(), 900, 950, table.getValue());
        }
        try (TieringService service = startService("union-instance")) {
            for (TablePath path : tables.keySet()) {
                awaitTiered(path);
            }
        }
        TableEnvironment sql = FlinkPeer.batchSql(cluster);
        for (Map.Entry<TablePath, Map<Long, String>> table : tables.entrySet()) {
            TablePath path = table.getKey();
            Map<Long, String> expected = table.getValue();
            // Not tiered: lives only in Fluss, so the read must merge it over the lake data by primary key.
            put(path, 0, 100, "paid", expected);
            delete(path, 100, 150, expected);
            put(path, 1_000, 1_100, "late", expected);

            Map<Long, String> actual = new TreeMap<>();
            try (CloseableIterator<Row> rows =
                    sql.executeSql("SELECT order_id, status FROM fluss_catalog.fluss." + path.getTableName()).collect()) {
                rows.forEachRemaining(row -> {
                    String previous = actual.put((Long) row.getField(0), (String) row.getField(1));
                    assertThat(previous).as("key %s of %s read twice", row.getField(0), path).isNull();
                });
            }
            assertThat(actual).as("union read of %s", path).isEqualTo(expected);

            // Flink reads lakesync's Paimon table directly too: the 950 tiered keys, none of the tail.
            try (CloseableIterator<Row> rows = sql.executeSql(
                    "SELECT COUNT(*) FROM fluss_catalog.fluss.`" + path.getTableName() + "$lake`").collect()) {
                assertThat(rows.next().getField(0)).as("lake rows of %s", path).isEqualTo(950L);
            }
        }
    }

    /**
     * Lake maintenance has fully compacted the primary-key table and expired its old snapshots, and rounds went on
     * on top of the compacted files: Flink's union read (batch) of the lake snapshot the coordinator holds plus the
     * Fluss tail still returns exactly Fluss's state.
     */
    @Test
    void unionReadThroughFlinkAfterCompactionAndExpiryReturnsFlussStateOfAPrimaryKeyTable() throws Exception {
        TablePath path = TablePath.of("fluss", "compacted_orders");
        createTable(path, orders(2, false));
        Map<Long, String> expected = new TreeMap<>();
        try (TieringService service = maintainedService("compacted-orders-instance")) {
            for (int round = 0; round < 3; round++) {
                put(path, round * 100, round * 100 + 300, "v" + round, expected);
                delete(path, round * 100, round * 100 + 40, expected);
                awaitTiered(path);
            }
            long compaction = awaitCompactionSnapshot(path, () -> put(path, 0, 1, "tick-" + System.nanoTime(), expected));
            put(path, 500, 600, "after-compaction", expected);
            delete(path, 250, 260, expected);
            assertThat(awaitTiered(path).getSnapshotId()).as("a round committed on the compacted files")
                    .isGreaterThan(compaction);
        }
        assertSnapshotsExpiredButTheCoordinatorsKept(path);
        // The Fluss tail, never tiered: merged over the compacted lake data by primary key.
        put(path, 0, 50, "tail", expected);
        delete(path, 300, 320, expected);
        put(path, 2_000, 2_050, "tail-new", expected);

        Map<Long, String> actual = new TreeMap<>();
        for (Row row : flinkRead("SELECT order_id, status FROM fluss_catalog.fluss.compacted_orders")) {
            assertThat(actual.put((Long) row.getField(0), (String) row.getField(1))).as("key %s twice", row.getField(0))
                    .isNull();
        }
        assertThat(actual).isEqualTo(expected);
    }

    /** The same for a log table whose small files lake maintenance compacted: every row exactly once. */
    @Test
    void unionReadThroughFlinkAfterCompactionReturnsEveryRowOfALogTableOnce() throws Exception {
        TablePath path = TablePath.of("fluss", "compacted_clicks");
        createTable(path, clicks());
        long[] written = {0};
        ThrowingRunnable click = () -> {
            append(path, clickRows(written[0], written[0] + 500));
            written[0] += 500;
        };
        try (TieringService service = maintainedService("compacted-clicks-instance")) {
            for (int round = 0; round < 3; round++) {
                click.run();
                awaitTiered(path);
            }
            long compaction = awaitCompactionSnapshot(path, click);
            click.run();
            assertThat(awaitTiered(path).getSnapshotId()).isGreaterThan(compaction);
        }
        click.run();

        List<Long> ids = new ArrayList<>();
        for (Row row : flinkRead("SELECT id FROM fluss_catalog.fluss.compacted_clicks")) {
            ids.add((Long) row.getField(0));
        }
        assertThat(ids).hasSize((int) written[0]).doesNotHaveDuplicates();
    }

    @Test
    void flussFlinkTieringJobAndLakesyncWriteTheSameLakeContent() throws Exception {
        TablePath byFlink = TablePath.of("fluss", "same_by_flink");
        TablePath byLakesync = TablePath.of("fluss", "same_by_lakesync");
        createTable(byFlink, clicks());
        List<InternalRow> rows = clickRows(0, 20_000);
        append(byFlink, rows);
        try (FlinkPeer.TieringJob job = FlinkPeer.startFlussTieringJob(cluster)) {
            awaitTiered(byFlink);
        }
        createTable(byLakesync, clicks());
        append(byLakesync, rows);
        try (TieringService service = startService("same-content-instance")) {
            awaitTiered(byLakesync);
        }
        String[] columns = {"id", "page", "__bucket", "__offset"};
        assertThat(sorted(readLake(byLakesync, columns))).isEqualTo(sorted(readLake(byFlink, columns)));
        assertThat(lake.load(byLakesync).rowType()).isEqualTo(lake.load(byFlink).rowType());
    }

    @Test
    void migrationFromTheFlinkTieringJobLosesAndDoublesNothing() throws Exception {
        TablePath path = TablePath.of("fluss", "migrated_clicks");
        createTable(path, clicks());
        append(path, clickRows(0, 10_000));
        try (FlinkPeer.TieringJob job = FlinkPeer.startFlussTieringJob(cluster)) {
            awaitTiered(path);
            // Stopped mid-stream: the job may be in the middle of a round of the second batch.
            append(path, clickRows(10_000, 20_000));
        }
        try (TieringService service = startService("migration-instance")) {
            append(path, clickRows(20_000, 30_000));
            awaitTiered(path);
        }
        List<List<Object>> lakeRows = readLake(path, "id");
        assertThat(lakeRows).hasSize(30_000);
        assertThat(lakeRows.stream().map(r -> r.get(0)).distinct().count()).isEqualTo(30_000);
    }

    private static TableDescriptor orders(int buckets, boolean deletionVectors) {
        TableDescriptor.Builder builder = ordersTable(buckets, "1s");
        if (deletionVectors) {
            builder.customProperty("paimon.deletion-vectors.enabled", "true");
        }
        return builder.build();
    }

    private static TableDescriptor clicks() {
        return TableDescriptor.builder()
                .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).column("page", DataTypes.STRING()).build())
                .distributedBy(3, "id")
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "1s")
                .build();
    }

    private static List<InternalRow> clickRows(long from, long to) {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString("/page/" + (id % 50))));
        }
        return rows;
    }

    private static void put(TablePath path, long from, long to, String status, Map<Long, String> expected)
            throws Exception {
        upsertStatus(path, from, to, status, expected);
    }

    private static void delete(TablePath path, long from, long to, Map<Long, String> expected) throws Exception {
        deleteKeys(path, from, to, expected);
    }

    private static List<String> sorted(List<List<Object>> rows) {
        List<String> lines = new ArrayList<>();
        rows.forEach(r -> lines.add(r.toString()));
        lines.sort(null);
        return lines;
    }

    /** Maintenance after every round, compacting from 3 files, fully, expiring snapshots older than a second. */
    private static final Map<String, String> MAINTAINED = Map.of(
            "maintenance.interval", "100ms",
            "maintenance.compaction.min-files", "3",
            "maintenance.full-compaction-interval", "100ms",
            "maintenance.snapshot.time-retained", "1s",
            "maintenance.snapshot.num-retained-min", "2",
            "maintenance.orphan.older-than", "1h");

    private static final String MAINTENANCE_COMMIT_USER = "__lakesync_maintenance";

    private static TieringService maintainedService(String instance) throws Exception {
        TieringService service = new TieringService(serviceConfig(instance, MAINTAINED));
        service.start();
        return service;
    }

    /**
     * Waits until lake maintenance committed a compaction on top of every tiered change, writing with
     * {@code write} meanwhile so rounds (and the passes after them) keep coming; returns its snapshot id.
     */
    private static long awaitCompactionSnapshot(TablePath path, ThrowingRunnable write) throws Exception {
        long[] compaction = new long[1];
        eventually(SYNC_TIMEOUT, () -> {
            write.run();
            awaitTiered(path);
            eventually(Duration.ofSeconds(10), () -> {
                Snapshot latest = lake.load(path).snapshotManager().latestSnapshot();
                assertThat(latest.commitUser()).isEqualTo(MAINTENANCE_COMMIT_USER);
                compaction[0] = latest.id();
            });
        });
        return compaction[0];
    }

    /** Expiry ran: the first snapshots are gone, and the one the coordinator holds for union reads is kept. */
    private static void assertSnapshotsExpiredButTheCoordinatorsKept(TablePath path) throws Exception {
        SnapshotManager snapshots = lake.load(path).snapshotManager();
        long held = fluss.readableLakeSnapshot(path).get().getSnapshotId();
        assertThat(snapshots.earliestSnapshotId()).as("old snapshots expired").isGreaterThan(1L)
                .as("the coordinator's lake snapshot kept").isLessThanOrEqualTo(held);
        assertThat(snapshots.snapshotExists(held)).isTrue();
    }

    private static List<Row> flinkRead(String query) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> result = FlinkPeer.batchSql(cluster).executeSql(query).collect()) {
            result.forEachRemaining(rows::add);
        }
        return rows;
    }
}
