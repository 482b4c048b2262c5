package io.lakesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.TieringService;
import io.lakesync.tiering.TieringTestBase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code lakesync verify} on lake tables lakesync tiered from a real cluster: OK while they are intact, and the
 * differences named, exit code 1, once a lake row was removed or duplicated behind tiering's back (written with
 * Paimon's own API).
 */
class VerifyCommandTest extends TieringTestBase {

    private static final TablePath CLICKS = TablePath.of("fluss", "verify_clicks");
    private static final TablePath ORDERS = TablePath.of("fluss", "verify_orders");

    private record Run(int exitCode, String out, String err) {}

    @BeforeAll
    static void tierTwoTables() throws Exception {
        createTable(CLICKS, idTable(3, "500ms"));
        Schema orders = Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("status", DataTypes.STRING())
                .primaryKey("id")
                .build();
        createTable(ORDERS, lakeTable(orders, 2, "500ms").build());
        append(CLICKS, ids(0, 600));
        upsert(ORDERS, orders(0, 200, "new"), false);
        upsert(ORDERS, orders(0, 50, "paid"), false);
        upsert(ORDERS, orders(150, 200, "gone"), true);
        try (TieringService service = startService("verify-instance")) {
            awaitTiered(CLICKS);
            awaitTiered(ORDERS);
        }
    }

    @Test
    void intactTablesAreOkAndTamperedOnesDifferWithTheFirstDifferencesNamed() throws Exception {
        Run clean = verify("--all");
        assertThat(clean.exitCode()).as(clean.out() + clean.err()).isZero();
        assertThat(clean.out())
                .contains("fluss.verify_clicks: OK, 600 rows, each offset once and contiguous")
                .contains("fluss.verify_orders: OK, 150 keys in the lake, 150 in Fluss's state at the lake offsets");

        List<org.apache.paimon.data.InternalRow> duplicated = rewrite(CLICKS, row -> row.getLong(0) == 7, RowKind.INSERT);
        long offset = duplicated.get(0).getLong(2);
        Run afterDuplicate = verify("fluss.verify_clicks");
        assertThat(afterDuplicate.exitCode()).isEqualTo(1);
        assertThat(afterDuplicate.out())
                .contains("offset " + offset + " duplicated")
                .contains("fluss.verify_clicks: DIFFERENT");

        rewrite(ORDERS, row -> row.getLong(0) == 10, RowKind.DELETE);
        Run afterRemoval = verify("fluss.verify_orders");
        assertThat(afterRemoval.exitCode()).isEqualTo(1);
        assertThat(afterRemoval.out())
                .contains("1 keys missing from the lake, 0 only in the lake, 0 with other values")
                .contains("key [10] is in Fluss at the lake offsets, not in the lake")
                .contains("fluss.verify_orders: DIFFERENT");
    }

    @Test
    void badInputIsRefusedWithExitCodeTwo() {
        Run neither = verify();
        assertThat(neither.exitCode()).isEqualTo(2);
        assertThat(neither.err()).contains("name one table as DB.TABLE, or pass --all");
        Run missing = verify("fluss.no_such_table");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("table fluss.no_such_table does not exist in Fluss");
    }

    private static Run verify(String... args) {
        List<String> all = new ArrayList<>(List.of("verify", "--data-dir", root.resolve("verify-cli").toString(),
                "--set", "fluss.bootstrap.servers=" + cluster.bootstrapServers()));
        cluster.lakeCatalogOptions().forEach((k, v) -> all.addAll(List.of("--set", "datalake.paimon." + k + "=" + v)));
        all.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = LakeSyncCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    /** Writes the lake rows that match once more, as {@code kind}, into their own bucket; returns them. */
    private static List<org.apache.paimon.data.InternalRow> rewrite(
            TablePath path, Predicate<org.apache.paimon.data.InternalRow> which, RowKind kind) throws Exception {
        FileStoreTable table = lake.load(path);
        InternalRowSerializer serializer = new InternalRowSerializer(table.rowType());
        int bucketField = table.rowType().getFieldIndex("__bucket");
        List<org.apache.paimon.data.InternalRow> rows = new ArrayList<>();
        ReadBuilder read = table.newReadBuilder();
        try (RecordReader<org.apache.paimon.data.InternalRow> reader =
                read.newRead().createReader(read.newScan().plan().splits())) {
            reader.forEachRemaining(row -> {
                if (which.test(row)) {
                    rows.add(serializer.copy(row));
                }
            });
        }
        assertThat(rows).isNotEmpty();
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
            for (org.apache.paimon.data.InternalRow row : rows) {
                row.setRowKind(kind);
                write.write(row, row.getInt(bucketField));
            }
            commit.commit(write.prepareCommit());
        }
        return rows;
    }

    private static List<InternalRow> orders(long from, long to, String status) {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString(status)));
        }
        return rows;
    }
}
