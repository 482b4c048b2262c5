package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.TableWrites;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/** A log table tiered by the native engine: every row exactly once, offsets registered everywhere. */
class LogTableTieringTest extends TieringTestBase {

    @Test
    void tiersEveryRowOfALogTableExactlyOnce() throws Exception {
        TablePath path = TablePath.of("fluss", "clicks");
        TableInfo info =
                createTable(
                        path,
                        TableDescriptor.builder()
                                .schema(
                                        Schema.newBuilder()
                                                .column("id", DataTypes.BIGINT())
                                                .column("user_name", DataTypes.STRING())
                                                .column("amount", DataTypes.INT())
                                                .build())
                                .distributedBy(4, "id")
                                .property("table.datalake.enabled", "true")
                                .property("table.datalake.freshness", "2s")
                                .build());
        int total = 200_000;
        List<InternalRow> rows = new ArrayList<>(total);
        for (long i = 0; i < total; i++) {
            rows.add(GenericRow.of(i, BinaryString.fromString("user-" + (i % 1000)), (int) (i % 97)));
        }
        append(path, rows);

        try (TieringService service = startService("log-instance")) {
            LakeSnapshot snapshot = awaitTiered(path);
            Map<TableBucket, Long> ends = endOffsets(path);
            assertThat(snapshot.getTableBucketsOffset()).isEqualTo(ends);
            assertThat(ends).hasSize(4).allSatisfy((bucket, end) -> assertThat(end).isPositive());
            for (Map.Entry<TableBucket, Long> end : ends.entrySet()) {
                io.lakesync.local.Eventually.eventually(
                        SYNC_TIMEOUT,
                        () -> assertThat(cluster.lakeLogEndOffset(end.getKey())).isEqualTo(end.getValue()));
            }
        }

        List<List<Object>> lakeRows = readLake(path, "id", "user_name", "amount", "__bucket", "__offset");
        assertThat(lakeRows).hasSize(total);
        Map<Integer, List<Long>> offsetsByBucket = new HashMap<>();
        boolean[] seen = new boolean[total];
        for (List<Object> row : lakeRows) {
            long id = (Long) row.get(0);
            assertThat(seen[(int) id]).as("id %s seen twice", id).isFalse();
            seen[(int) id] = true;
            assertThat(row.get(1)).isEqualTo("user-" + (id % 1000));
            offsetsByBucket.computeIfAbsent((Integer) row.get(3), b -> new ArrayList<>()).add((Long) row.get(4));
        }
        Map<TableBucket, Long> ends = endOffsets(path);
        assertThat(offsetsByBucket).hasSize(4);
        offsetsByBucket.forEach((bucket, offsets) -> {
            long end = ends.get(new TableBucket(info.getTableId(), bucket));
            assertThat(offsets).hasSize((int) end);
            assertThat(offsets.stream().mapToLong(Long::longValue).sorted().toArray())
                    .isEqualTo(java.util.stream.LongStream.range(0, end).toArray());
        });
    }

    /**
     * The writes of a table go through a Fluss connection of their own (writers sharing one connection share a
     * sender that Fluss 0.9.1 confuses across tables when a server fails): they go on after the connection the
     * client itself was opened on is closed.
     */
    @Test
    void aTablesWritesHaveAConnectionOfTheirOwn() throws Exception {
        TablePath path = TablePath.of("fluss", "own_connection_writes");
        createTable(path, idTable(1, "1min"));
        Connection shared = ConnectionFactory.createConnection(cluster.clientConfiguration());
        TableWrites writes = FlussClient.over(shared, SYNC_TIMEOUT).writes(path);
        shared.close();
        try (writes) {
            writes.append(GenericRow.of(1L));
            writes.flush();
        }
        assertThat(endOffsets(path).values()).containsExactly(1L);
    }
}
