package io.lakesync.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.KeyedStatuses;
import io.lakesync.tiering.TieringService;
import io.lakesync.tiering.TieringTestBase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.core.execution.JobClient;
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

    @Test
    void flussFlinkTieringJobAndLakesyncWriteTheSameLakeContent() throws Exception {
        TablePath byFlink = TablePath.of("fluss", "same_by_flink");
        TablePath byLakesync = TablePath.of("fluss", "same_by_lakesync");
        createTable(byFlink, clicks());
        List<InternalRow> rows = clickRows(0, 20_000);
        append(byFlink, rows);
        JobClient job = FlinkPeer.startFlussTieringJob(cluster);
        try {
            awaitTiered(byFlink);
        } finally {
            job.cancel().get();
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
        JobClient job = FlinkPeer.startFlussTieringJob(cluster);
        try {
            awaitTiered(path);
            append(path, clickRows(10_000, 20_000));
        } finally {
            // Mid-stream: the job may be in the middle of a round of the second batch.
            job.cancel().get();
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
        TableDescriptor.Builder builder = KeyedStatuses.table(buckets, "1s");
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
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString(status + "-" + id)));
            expected.put(id, status + "-" + id);
        }
        upsert(path, rows, false);
    }

    private static void delete(TablePath path, long from, long to, Map<Long, String> expected) throws Exception {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString(expected.remove(id))));
        }
        upsert(path, rows, true);
    }

    private static List<String> sorted(List<List<Object>> rows) {
        List<String> lines = new ArrayList<>();
        rows.forEach(r -> lines.add(r.toString()));
        lines.sort(null);
        return lines;
    }
}
