package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.PartitionSpec;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/** Partitioned log and primary-key tables: every partition tiered, including one created while syncing. */
class PartitionedTableTieringTest extends TieringTestBase {

    private static final TablePath EVENTS = TablePath.of("fluss", "events_by_day");
    private static final TablePath ACCOUNTS = TablePath.of("fluss", "accounts_by_region");

    @Test
    void tiersEveryPartitionIncludingOneCreatedWhileSyncing() throws Exception {
        createTable(
                EVENTS,
                TableDescriptor.builder()
                        .schema(
                                Schema.newBuilder()
                                        .column("id", DataTypes.BIGINT())
                                        .column("dt", DataTypes.STRING())
                                        .build())
                        .partitionedBy("dt")
                        .distributedBy(2, "id")
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", "2s")
                        .build());
        createTable(
                ACCOUNTS,
                TableDescriptor.builder()
                        .schema(
                                Schema.newBuilder()
                                        .column("region", DataTypes.STRING())
                                        .column("account", DataTypes.BIGINT())
                                        .column("balance", DataTypes.INT())
                                        .primaryKey("region", "account")
                                        .build())
                        .partitionedBy("region")
                        .distributedBy(2)
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", "2s")
                        .build());
        addPartition(EVENTS, "dt", "2026-11-29");
        addPartition(EVENTS, "dt", "2026-11-30");
        addPartition(ACCOUNTS, "region", "eu");
        append(EVENTS, events("2026-11-29", 0, 1000));
        append(EVENTS, events("2026-11-30", 1000, 2000));
        Map<List<Object>, Integer> balances = new HashMap<>();
        upsert(ACCOUNTS, accounts("eu", 0, 300, 10, balances), false);

        try (TieringService service = startService("partitioned-instance")) {
            awaitTiered(EVENTS);
            awaitTiered(ACCOUNTS);

            addPartition(EVENTS, "dt", "2026-12-01");
            addPartition(ACCOUNTS, "region", "us");
            append(EVENTS, events("2026-12-01", 2000, 2500));
            upsert(ACCOUNTS, accounts("us", 0, 200, 20, balances), false);
            upsert(ACCOUNTS, accounts("eu", 0, 100, 30, balances), false);
            awaitTiered(EVENTS);
            awaitTiered(ACCOUNTS);
        }

        Map<String, Integer> perDay = new HashMap<>();
        List<Long> ids = new ArrayList<>();
        for (List<Object> row : readLake(EVENTS, "id", "dt")) {
            perDay.merge((String) row.get(1), 1, Integer::sum);
            ids.add((Long) row.get(0));
        }
        assertThat(perDay).containsOnly(
                Map.entry("2026-11-29", 1000), Map.entry("2026-11-30", 1000), Map.entry("2026-12-01", 500));
        assertThat(ids).doesNotHaveDuplicates().hasSize(2500);

        Map<List<Object>, Integer> lakeBalances = new HashMap<>();
        for (List<Object> row : readLake(ACCOUNTS, "region", "account", "balance")) {
            lakeBalances.put(List.of(row.get(0), row.get(1)), (Integer) row.get(2));
        }
        assertThat(lakeBalances).isEqualTo(balances);
    }

    private static void addPartition(TablePath path, String key, String value) throws Exception {
        admin.createPartition(path, new PartitionSpec(Map.of(key, value)), false).get();
    }

    private static List<InternalRow> events(String day, long from, long to) {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString(day)));
        }
        return rows;
    }

    private static List<InternalRow> accounts(
            String region, long from, long to, int balance, Map<List<Object>, Integer> expected) {
        List<InternalRow> rows = new ArrayList<>();
        for (long account = from; account < to; account++) {
            rows.add(GenericRow.of(BinaryString.fromString(region), account, balance));
            expected.put(List.of(region, account), balance);
        }
        return rows;
    }
}
