package io.lakesync.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.sql.SqlMain;
import io.lakesync.tiering.TieringService;
import io.lakesync.tiering.TieringTestBase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.junit.jupiter.api.Test;

/**
 * {@code lakesync sql} on a real cluster: the spec's statements verbatim, errors as one line, and a union read
 * of lakesync's lake history and the Fluss tail, in batch and streaming mode.
 */
class SqlCommandTest extends TieringTestBase {

    private static final String SPEC_CREATE = """
            CREATE TABLE `my-catalog`.`fluss`.`datalake_orders` (
              shop_id BIGINT,
              user_id BIGINT,
              num_orders INT,
              total_amount INT,
              PRIMARY KEY (shop_id, user_id) NOT ENFORCED
            ) WITH (
              'bucket.num' = '4',
              'table.datalake.enabled' = 'true',
              'table.datalake.freshness' = '30min'
            );
            """;

    private record Run(int exitCode, String out, String err) {}

    @Test
    void theSpecsStatementsRunVerbatimAndErrorsAreOneLine() throws Exception {
        Run create = sql("-e", SPEC_CREATE);
        assertThat(create.exitCode()).as(create.err()).isZero();
        assertThat(create.out()).isEqualToIgnoringNewLines("OK");
        TablePath orders = TablePath.of("fluss", "datalake_orders");
        TableInfo info = admin.getTableInfo(orders).get();
        assertThat(info.getNumBuckets()).isEqualTo(4);
        assertThat(info.getPrimaryKeys()).containsExactly("shop_id", "user_id");
        assertThat(info.getTableConfig().isDataLakeEnabled()).isTrue();
        assertThat(info.getTableConfig().getDataLakeFreshness()).isEqualTo(Duration.ofMinutes(30));

        Path script = Files.writeString(root.resolve("alter.sql"), """
                -- the spec's two ALTER statements
                ALTER TABLE datalake_orders SET ('table.datalake.enabled' = 'false');
                """);
        assertThat(sql("-f", script.toString()).exitCode()).isZero();
        assertThat(admin.getTableInfo(orders).get().getTableConfig().isDataLakeEnabled()).isFalse();
        assertThat(sql("-e", "ALTER TABLE datalake_orders SET ('table.datalake.enabled' = 'true');").exitCode())
                .isZero();
        assertThat(admin.getTableInfo(orders).get().getTableConfig().isDataLakeEnabled()).isTrue();

        Run failed = sql("-e", "SELECT * FROM no_such_table; SELECT 1");
        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(failed.err().lines()).singleElement().asString()
                .startsWith("lakesync sql: ")
                .contains("no_such_table");
        assertThat(failed.out()).as("stops at the failed statement").isEmpty();
        assertThat(sql("--mode", "sideways", "-e", "SELECT 1").exitCode()).isEqualTo(2);
        Run unreachable = sql("--bootstrap", "127.0.0.1:1", "-e", "SELECT 1");
        assertThat(unreachable.exitCode()).isEqualTo(1);
        assertThat(unreachable.err().lines()).singleElement().asString()
                .startsWith("lakesync sql: cannot open the Fluss catalog at 127.0.0.1:1 (--bootstrap): ");
    }

    @Test
    void unionReadMergesTheLakeHistoryWithTheFlussTailInBatchAndStreamingMode() throws Exception {
        String create = SPEC_CREATE.replace("datalake_orders", "union_orders").replace("'4'", "'2'")
                .replace("30min", "1s");
        assertThat(sql("-e", create).exitCode()).isZero();
        TablePath path = TablePath.of("fluss", "union_orders");
        Map<String, String> expected = new TreeMap<>();
        put(path, 0, 100, 1, expected);
        try (TieringService service = startService("sql-instance")) {
            awaitTiered(path);
        }
        // Not tiered: only in Fluss, so the read must merge it over the lake by primary key and honour deletes.
        put(path, 0, 20, 2, expected);
        StringBuilder insert = new StringBuilder("INSERT INTO union_orders VALUES ");
        for (long user = 100; user < 110; user++) {
            insert.append(user == 100 ? "" : ", ").append(String.format("(%d, %d, 1, %d)", user % 10, user, user));
            expected.put(user % 10 + "," + user, "1," + user);
        }
        List<InternalRow> deletes = new ArrayList<>();
        for (long user = 90; user < 100; user++) {
            deletes.add(row(user, 1));
            expected.remove(user % 10 + "," + user);
        }
        upsert(path, deletes, true);

        Run read = sql("-e", insert + "; SELECT shop_id, user_id, num_orders, total_amount FROM union_orders;"
                + " SELECT COUNT(*) AS lake_rows FROM `union_orders$lake`;");
        assertThat(read.exitCode()).as(read.err()).isZero();
        Map<String, String> actual = new TreeMap<>();
        read.out().lines()
                .filter(line -> line.matches("\\| \\d+ +\\| \\d+ +\\| \\d+ +\\| \\d+ +\\|"))
                .map(line -> line.replaceAll("[| ]+", " ").strip().split(" "))
                .forEach(cells -> assertThat(actual.put(cells[0] + "," + cells[1], cells[2] + "," + cells[3]))
                        .as("key %s,%s read twice", cells[0], cells[1]).isNull());
        assertThat(actual).isEqualTo(expected);
        assertThat(read.out()).contains(expected.size() + " rows").containsPattern("\\| 100 +\\|");

        Run streaming = sql("--mode", "streaming", "--max-rows", "5", "-e", "SELECT * FROM union_orders");
        assertThat(streaming.exitCode()).as(streaming.err()).isZero();
        assertThat(streaming.out()).contains("op | shop_id | user_id | num_orders | total_amount")
                .contains("5 rows (stopped at --max-rows)");
    }

    private static void put(TablePath path, long from, long to, int version, Map<String, String> expected)
            throws Exception {
        List<InternalRow> rows = new ArrayList<>();
        for (long user = from; user < to; user++) {
            rows.add(row(user, version));
            expected.put(user % 10 + "," + user, version + "," + (user * version));
        }
        upsert(path, rows, false);
    }

    private static InternalRow row(long user, int version) {
        return GenericRow.of(user % 10, user, version, (int) (user * version));
    }

    private static Run sql(String... args) {
        List<String> all = new ArrayList<>(List.of("--history", root.resolve("sql-history").toString()));
        if (!List.of(args).contains("--bootstrap")) {
            all.addAll(List.of("--bootstrap", cluster.bootstrapServers()));
        }
        all.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SqlMain.execute(new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }
}
