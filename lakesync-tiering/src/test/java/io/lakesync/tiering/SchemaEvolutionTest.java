package io.lakesync.tiering;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.tiering.round.RoundStage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.metadata.PartitionSpec;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.schema.SchemaChange;
import org.junit.jupiter.api.Test;

/**
 * A Fluss {@code ADD COLUMN} is carried into the lake table on log, primary-key and partitioned tables: rows
 * from before the change read back with NULL in the new column, rows after it with their values, and the
 * table never blocks. A column added or retyped in Paimon behind Fluss's back does block, with that reason.
 */
class SchemaEvolutionTest extends TieringTestBase {

    private final RecordedFailures failures = new RecordedFailures();

    @Test
    void flussAddColumnSyncsOnForLogPrimaryKeyAndPartitionedTables() throws Exception {
        TablePath log = TablePath.of("fluss", "evolving_log");
        TablePath keyed = TablePath.of("fluss", "evolving_pk");
        TablePath partitioned = TablePath.of("fluss", "evolving_partitioned");
        createTable(log, descriptor(false, false));
        createTable(keyed, descriptor(true, false));
        createTable(partitioned, descriptor(false, true));
        admin.createPartition(partitioned, new PartitionSpec(Map.of("dt", "d1")), false).get();
        Map<Long, Integer> keyedExtra = new HashMap<>();

        // One service throughout: a lake schema cached before the ALTER must not outlive it.
        try (TieringService service = failures.startService("evolving", Map.of())) {
            append(log, rows(0, 100, null, null));
            upsert(keyed, rows(0, 100, null, null), false);
            append(partitioned, rows(0, 100, "d1", null));
            awaitTiered(log);
            awaitTiered(keyed);
            awaitTiered(partitioned);

            // Written under the old schema right before the column is added: tiered before or after it.
            append(log, rows(100, 200, null, null));
            upsert(keyed, rows(100, 200, null, null), false);
            append(partitioned, rows(100, 200, "d1", null));
            for (TablePath path : List.of(log, keyed, partitioned)) {
                addExtraColumn(path);
            }
            append(log, rows(200, 300, null, 7));
            upsert(keyed, rows(50, 150, null, 8), false);
            admin.createPartition(partitioned, new PartitionSpec(Map.of("dt", "d2")), false).get();
            append(partitioned, rows(200, 250, "d1", 9));
            append(partitioned, rows(250, 300, "d2", 9));
            awaitTiered(log);
            awaitTiered(keyed);
            awaitTiered(partitioned);
        }
        for (long id = 50; id < 150; id++) {
            keyedExtra.put(id, 8);
        }

        // Rounds cut short by stopping a service report LOST; nothing else may have failed.
        for (TablePath path : List.of(log, keyed, partitioned)) {
            assertThat(failures.of(path)).as("failed rounds of %s", path)
                    .allSatisfy(f -> assertThat(f.kind()).isEqualTo(FailureKind.LOST));
        }
        assertExtraColumn(log, 300, id -> id >= 200 ? 7 : null);
        assertExtraColumn(keyed, 200, id -> keyedExtra.get(id));
        assertExtraColumn(partitioned, 300, id -> id >= 200 ? 9 : null);
    }

    /**
     * A KV snapshot taken after the column was added holds values of both schemas: Fluss's snapshot scanner hands
     * the older ones out projected onto the new schema, the newer ones as they are stored. The first round loads
     * it through the primary-key columnar write: the older rows read back with NULL in the new column.
     */
    @Test
    void kvSnapshotAfterAddColumnLoadsRowsOfBothSchemas() throws Exception {
        TablePath keyed = TablePath.of("fluss", "evolving_pk_snapshot");
        createTable(keyed, descriptor(true, false));
        upsert(keyed, rows(0, 100, null, null), false);
        addExtraColumn(keyed);
        upsert(keyed, rows(50, 150, null, 8), false);
        Map<TableBucket, Long> ends = endOffsets(keyed);
        eventually(Duration.ofSeconds(60), () -> {
            KvSnapshots snapshots = admin.getLatestKvSnapshots(keyed).get();
            ends.forEach((bucket, end) -> assertThat(snapshots.getLogOffset(bucket.getBucket()))
                    .as("KV snapshot of bucket %s", bucket.getBucket())
                    .hasValue(end));
        });

        try (TieringService service = failures.startService("evolving-snapshot", Map.of())) {
            awaitTiered(keyed);
        }
        assertThat(failures.of(keyed))
                .as("failed rounds")
                .allSatisfy(f -> assertThat(f.kind()).isEqualTo(FailureKind.LOST));
        assertExtraColumn(keyed, 150, id -> id >= 50 ? 8 : null);
    }

    /**
     * The column is added, and rows written with it, after a round read its table info and before it read its
     * high watermarks: the columnar reader meets batches in a newer schema than the round's. Read in the older
     * schema the new column's values would be lost, so the round is read again in the new one, without failing.
     */
    @Test
    void columnAddedWhileARoundPlansIsReadInTheNewSchema() throws Exception {
        TablePath log = TablePath.of("fluss", "evolving_mid_round");
        createTable(log, descriptor(false, false));
        append(log, rows(0, 100, null, null));
        AtomicBoolean altering = new AtomicBoolean();
        CountDownLatch altered = new CountDownLatch(1);
        RoundHooks alterOnce = (stage, assignment) -> {
            if (stage == RoundStage.TABLE_READ && assignment.tablePath().equals(log) && altering.compareAndSet(false, true)) {
                addExtraColumn(log);
                append(log, rows(100, 200, null, 7));
                altered.countDown();
            }
        };
        try (TieringService service = failures.startService("evolving-mid-round", Map.of(), alterOnce)) {
            assertThat(altered.await(60, TimeUnit.SECONDS)).as("a round read its table info").isTrue();
            awaitTiered(log);
        }
        assertThat(failures.of(log)).as("failed rounds")
                .allSatisfy(f -> assertThat(f.kind()).isEqualTo(FailureKind.LOST));
        assertExtraColumn(log, 200, id -> id >= 100 ? 7 : null);
    }

    @Test
    void columnAddedOrRetypedInPaimonBehindFlussBlocks() throws Exception {
        TablePath added = TablePath.of("fluss", "paimon_added_column");
        TablePath retyped = TablePath.of("fluss", "paimon_retyped_column");
        createTable(added, descriptor(false, false));
        createTable(retyped, descriptor(false, false));
        lake.catalog().alterTable(
                Identifier.create("fluss", "paimon_added_column"),
                SchemaChange.addColumn("sneaky", org.apache.paimon.types.DataTypes.INT(), null, SchemaChange.Move.before("sneaky", "__bucket")),
                false);
        lake.catalog().alterTable(
                Identifier.create("fluss", "paimon_retyped_column"),
                SchemaChange.updateColumnType("v", org.apache.paimon.types.DataTypes.BIGINT()),
                false);
        append(added, rows(0, 10, null, null));
        append(retyped, rows(0, 10, null, null));

        try (TieringService service = failures.startService("paimon-changed", Map.of())) {
            eventually(SYNC_TIMEOUT, () -> {
                assertThat(failures.of(added)).anySatisfy(f -> {
                    assertThat(f.kind()).isEqualTo(FailureKind.BLOCKED);
                    assertThat(f.cause().getMessage()).contains("changed outside Fluss").contains("sneaky");
                });
                assertThat(failures.of(retyped)).anySatisfy(f -> {
                    assertThat(f.kind()).isEqualTo(FailureKind.BLOCKED);
                    assertThat(f.cause().getMessage())
                            .contains("changed outside Fluss")
                            .contains("column 'v' has type BIGINT");
                });
            });
        }
        assertThat(lake.load(added).snapshotManager().latestSnapshotId()).as("nothing committed").isNull();
    }

    /** Fluss's {@code ALTER TABLE ... ADD COLUMN extra INT}. */
    private static void addExtraColumn(TablePath path) throws Exception {
        admin.alterTable(
                        path,
                        List.of(TableChange.addColumn("extra", DataTypes.INT(), null, TableChange.ColumnPosition.last())),
                        false)
                .get();
    }

    private void assertExtraColumn(TablePath path, int rows, java.util.function.LongFunction<Integer> expected)
            throws Exception {
        List<List<Object>> lakeRows = readLake(path, "id", "v", "extra");
        assertThat(lakeRows).as("rows of %s", path).hasSize(rows);
        assertThat(lakeRows.stream().map(r -> r.get(0)).distinct().count()).isEqualTo(rows);
        for (List<Object> row : lakeRows) {
            long id = (Long) row.get(0);
            assertThat(row.get(1)).as("v of %s in %s", id, path).isEqualTo("v" + id);
            assertThat(row.get(2)).as("extra of %s in %s", id, path).isEqualTo(expected.apply(id));
        }
    }

    private static TableDescriptor descriptor(boolean primaryKey, boolean partitioned) {
        Schema.Builder schema = Schema.newBuilder().column("id", DataTypes.BIGINT()).column("v", DataTypes.STRING());
        if (partitioned) {
            schema.column("dt", DataTypes.STRING());
        }
        if (primaryKey) {
            schema.primaryKey("id");
        }
        TableDescriptor.Builder builder = lakeTable(schema.build(), 2, "1s");
        if (partitioned) {
            builder.partitionedBy("dt");
        }
        return builder.build();
    }

    /** Rows {@code (id, "v" + id[, day][, extra])}; {@code day} null for an unpartitioned table. */
    private static List<InternalRow> rows(long from, long to, String day, Integer extra) {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            List<Object> fields = new ArrayList<>(List.of(id, BinaryString.fromString("v" + id)));
            if (day != null) {
                fields.add(BinaryString.fromString(day));
            }
            if (extra != null) {
                fields.add(extra);
            }
            rows.add(GenericRow.of(fields.toArray()));
        }
        return rows;
    }
}
