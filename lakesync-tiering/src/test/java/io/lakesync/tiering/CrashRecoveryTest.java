package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.tiering.round.RoundStage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The service process killed hard at different points of a round, then restarted on the same data folder:
 * every row lands in the lake exactly once. Each case kills a real child JVM with {@code Runtime.halt}.
 */
class CrashRecoveryTest extends TieringTestBase {

    private static final int ROWS = 60_000;

    @ParameterizedTest(name = "killed at {0} + {1} ms, {2} table")
    @CsvSource({
        "PLANNED, 150, log",
        "DATA_WRITTEN, 0, log",
        "LAKE_COMMITTED, 0, log",
        "DATA_WRITTEN, 0, pk",
        "LAKE_COMMITTED, 0, pk"
    })
    void restartAfterHardKillTiersEveryRowExactlyOnce(RoundStage stage, long delayMs, String kind) throws Exception {
        boolean primaryKey = kind.equals("pk");
        String name = ("crash_" + stage + "_" + delayMs + "_" + kind).toLowerCase();
        TablePath path = TablePath.of("fluss", name);
        Schema.Builder schema = Schema.newBuilder().column("id", DataTypes.BIGINT()).column("payload", DataTypes.STRING());
        if (primaryKey) {
            schema.primaryKey("id");
        }
        createTable(
                path,
                TableDescriptor.builder()
                        .schema(schema.build())
                        .distributedBy(4, "id")
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", "1s")
                        .build());
        List<InternalRow> rows = new ArrayList<>();
        for (long id = 0; id < ROWS; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString("payload-" + id)));
        }
        if (primaryKey) {
            upsert(path, rows, false);
        } else {
            append(path, rows);
        }

        String instance = "crash-" + name;
        Process child = startChild(serviceConfig(instance, Map.of()), name, stage, delayMs);
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("child process halted").isTrue();
        assertThat(child.exitValue()).isEqualTo(TieringProcessMain.HALT_EXIT_CODE);

        try (TieringService restarted = new TieringService(serviceConfig(instance, Map.of()))) {
            restarted.start();
            awaitTiered(path);
        }
        List<List<Object>> lakeRows = readLake(path, "id", "payload");
        assertThat(lakeRows).hasSize(ROWS);
        assertThat(lakeRows.stream().map(r -> r.get(0)).distinct().count()).isEqualTo(ROWS);
    }

    private static Process startChild(LakeSyncConfig config, String table, RoundStage stage, long delayMs)
            throws Exception {
        return TieringProcessMain.startChild(
                config,
                List.of("--halt-table=" + table, "--halt-at=" + stage, "--halt-delay-ms=" + delayMs),
                root.resolve("child-" + table + ".log"));
    }
}
