package io.lakesync.catalog;

import io.lakesync.fluss.Deadline;
import io.lakesync.fluss.FlussClient;
import io.lakesync.tiering.lake.LakeTables;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;

/**
 * What must hold before the service is switched on, checked for real: the Fluss cluster answers and lets
 * lakesync list its tables, and the lake catalog lets it create a database and a table, write a row and read
 * it back. The probe works in a scratch database it drops afterwards. Checks run in order and stop at the
 * first failure, which names the check. Each check waits at most the call timeout: an unreachable server fails
 * it, naming what did not answer.
 */
public final class Prerequisites {

    private final FlussClient fluss;
    private final LakeTables lakeTables;
    private final Duration callTimeout;

    public Prerequisites(FlussClient fluss, LakeTables lakeTables, Duration callTimeout) {
        this.fluss = fluss;
        this.lakeTables = lakeTables;
        this.callTimeout = callTimeout;
    }

    public List<CheckResult> run() {
        List<CheckResult> results = new ArrayList<>();
        Catalog catalog = lakeTables.catalog();
        String database = "lakesync_probe_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        Identifier table = Identifier.create(database, "probe");
        boolean ok =
                check(results, "Fluss cluster reachable", () -> Deadline.in(callTimeout)
                                .await(fluss.serverNodes(), "Fluss").size() + " server(s) answer")
                        && check(results, "Fluss credentials can list tables", () -> Deadline.in(callTimeout)
                                .await(fluss.allTables(), "Fluss").size() + " table(s) visible")
                        && check(results, "Lake catalog reachable", () -> inTime(() -> catalog.listDatabases().size() + " database(s)"))
                        && check(results, "Create a database in the lake", () -> inTime(() -> {
                            catalog.createDatabase(database, false);
                            return "created " + database;
                        }));
        if (!ok) {
            return results;
        }
        try {
            boolean written =
                    check(results, "Create a table in the lake", () -> inTime(() -> {
                                catalog.createTable(
                                        table,
                                        Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING()).build(),
                                        false);
                                return "created " + table.getFullName();
                            }))
                            && check(results, "Write to the lake", () -> inTime(() -> {
                                BatchWriteBuilder builder = catalog.getTable(table).newBatchWriteBuilder();
                                try (BatchTableWrite write = builder.newWrite();
                                        BatchTableCommit commit = builder.newCommit()) {
                                    write.write(GenericRow.of(1, org.apache.paimon.data.BinaryString.fromString("probe")));
                                    commit.commit(write.prepareCommit());
                                }
                                return "committed one row";
                            }));
            if (written) {
                check(results, "Read from the lake", () -> inTime(() -> {
                    Table probe = catalog.getTable(table);
                    ReadBuilder read = probe.newReadBuilder();
                    int[] rows = {0};
                    try (RecordReader<org.apache.paimon.data.InternalRow> reader =
                            read.newRead().createReader(read.newScan().plan())) {
                        reader.forEachRemaining(row -> rows[0]++);
                    }
                    if (rows[0] != 1) {
                        throw new IllegalStateException("read back " + rows[0] + " rows instead of 1");
                    }
                    return "read the row back";
                }));
            }
        } finally {
            check(results, "Clean up the scratch database", () -> inTime(() -> {
                catalog.dropDatabase(database, true, true);
                return "dropped " + database;
            }));
        }
        return results;
    }

    private String inTime(Callable<String> lakeCall) throws Exception {
        return Deadline.in(callTimeout).call(lakeCall, "The lake");
    }

    /** Whether every check in {@code results} passed. */
    public static boolean allPassed(List<CheckResult> results) {
        return results.stream().allMatch(CheckResult::passed);
    }

    private static boolean check(List<CheckResult> results, String name, Probe probe) {
        try {
            results.add(new CheckResult(name, true, probe.run()));
            return true;
        } catch (Exception e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            String message = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
            results.add(new CheckResult(name, false, message));
            return false;
        }
    }

    @FunctionalInterface
    private interface Probe {
        String run() throws Exception;
    }
}
