package io.lakesync.tiering;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;

/**
 * A primary-key table tiered as a changelog: bulk-load from a KV snapshot, then inserts, updates, deletes and
 * re-inserts of deleted keys; the merged lake content equals the expected key-to-row map and the lake's
 * changelog keeps the DELETE entries.
 */
class PrimaryKeyTableTieringTest extends TieringTestBase {

    private static final TablePath ORDERS = TablePath.of("fluss", "pk_orders");

    private final Map<Long, String> expected = new TreeMap<>();

    @Test
    void tiersInsertsUpdatesDeletesAndReinsertsFromSnapshotPlusChangelog() throws Exception {
        createTable(
                ORDERS,
                TableDescriptor.builder()
                        .schema(
                                Schema.newBuilder()
                                        .column("order_id", DataTypes.BIGINT())
                                        .column("status", DataTypes.STRING())
                                        .primaryKey("order_id")
                                        .build())
                        .distributedBy(4)
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", "2s")
                        .build());
        put(0, 5_000, "new");
        awaitKvSnapshotOfEveryBucket();

        try (TieringService service = startService("pk-instance")) {
            awaitTiered(ORDERS);
            assertLakeEqualsExpected();
            assertThat(readLake(ORDERS, "order_id", "__offset"))
                    .as("rows bulk-loaded from the KV snapshot carry offset -1")
                    .anySatisfy(row -> assertThat(row.get(1)).isEqualTo(-1L));

            put(0, 1_000, "paid");
            delete(1_000, 1_500);
            put(1_000, 1_100, "back");
            put(4_000, 4_500, "shipped");
            delete(4_900, 5_000);
            awaitTiered(ORDERS);
            assertLakeEqualsExpected();
        }

        List<List<Object>> changelog = readLakeChangelog(ORDERS, "order_id");
        List<Long> deleted = new ArrayList<>();
        for (List<Object> entry : changelog) {
            if (kind(entry) == RowKind.DELETE) {
                deleted.add((Long) entry.get(1));
            }
        }
        assertThat(deleted).hasSize(500 + 100).contains(1_000L, 1_499L, 4_900L, 4_999L);
        assertThat(changelog).anySatisfy(entry -> assertThat(kind(entry)).isEqualTo(RowKind.UPDATE_AFTER));
    }

    private void put(long from, long to, String status) throws Exception {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString(status + "-" + id)));
            expected.put(id, status + "-" + id);
        }
        upsert(ORDERS, rows, false);
    }

    private void delete(long from, long to) throws Exception {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString(expected.get(id))));
            expected.remove(id);
        }
        upsert(ORDERS, rows, true);
    }

    private void assertLakeEqualsExpected() throws Exception {
        Map<Long, String> actual = new TreeMap<>();
        for (List<Object> row : readLake(ORDERS, "order_id", "status")) {
            assertThat(actual.put((Long) row.get(0), (String) row.get(1))).as("duplicate key %s", row.get(0)).isNull();
        }
        assertThat(actual).isEqualTo(expected);
    }

    private static void awaitKvSnapshotOfEveryBucket() throws Exception {
        eventually(Duration.ofSeconds(60), () -> {
            KvSnapshots snapshots = admin.getLatestKvSnapshots(ORDERS).get();
            for (int bucket = 0; bucket < 4; bucket++) {
                OptionalLong id = snapshots.getSnapshotId(bucket);
                assertThat(id).as("KV snapshot of bucket %s", bucket).isPresent();
            }
        });
    }
}
