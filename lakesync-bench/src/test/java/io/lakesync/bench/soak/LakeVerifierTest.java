package io.lakesync.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.bench.cluster.LakeTables;
import io.lakesync.bench.data.BenchRecord;
import io.lakesync.bench.data.BenchSchema;
import io.lakesync.bench.data.PkOps;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak's row-by-row check on real Paimon tables written by hand: exact tables pass, and every kind of damage
 * (a lost row, a duplicate, a changed value, a row in the wrong partition, a lost or resurrected key) is counted
 * where it belongs.
 */
class LakeVerifierTest {

    private static final SoakTables TABLES = SoakTables.standard();

    @TempDir Path warehouse;

    private LakeTables lake;
    private Catalog catalog;
    private SoakData data;
    /** A key the primary-key operations deleted last. */
    private long deletedKey;

    @BeforeEach
    void createTables() throws Exception {
        Map<String, String> options = Map.of("warehouse", warehouse.toString(), "metastore", "filesystem");
        lake = new LakeTables(options);
        catalog = LakeTables.openCatalog(options);
        catalog.createDatabase(SoakTables.DATABASE, false);
        catalog.createTable(LakeTables.identifier(TABLES.log()), schema(false).build(), false);
        catalog.createTable(LakeTables.identifier(TABLES.primaryKey()),
                schema(false).primaryKey(BenchSchema.KEY_COLUMN).option("bucket", "1").build(), false);
        catalog.createTable(LakeTables.identifier(TABLES.partitioned()),
                schema(true).partitionKeys(BenchSchema.PARTITION_COLUMN).build(), false);
        data = new SoakData(3);
    }

    @Test
    void exactTablesPass() throws Exception {
        writeLog(generateLog(100));
        writePk(generatePk(300), -1);
        writePartitioned(generatePartitioned(90, 3), -1);

        List<String> progress = new ArrayList<>();
        List<TableCheck> checks = new LakeVerifier(lake, TABLES, progress::add).verify(data);

        assertThat(progress).as("a line per table as it is read back").hasSize(3).allMatch(line -> line.endsWith(", exact"));
        assertThat(progress.get(0)).startsWith("Read back " + checks.get(0).table() + ": 100 rows in ");
        assertThat(checks).hasSize(3).allSatisfy(check -> {
            assertThat(check.exact()).as(check.toString()).isTrue();
            assertThat(check.checked()).isPositive();
        });
        assertThat(checks.get(0).checked()).isEqualTo(100);
        assertThat(checks.get(1).checked()).isEqualTo(data.pkState().liveKeys());
        assertThat(checks.get(2).kind()).isEqualTo("log, 3 partitions");
    }

    @Test
    void countsEveryKindOfDamage() throws Exception {
        List<BenchRecord> log = generateLog(100);
        log.remove(5); // row 5 lost
        log.add(log.get(7)); // row 7 (now at index 7: id 8) twice
        BenchRecord changed = log.get(20);
        log.set(20, new BenchRecord(changed.id(), changed.userId() + 1, changed.amount(), changed.category(),
                changed.name(), changed.payload()));
        writeLog(log);
        List<BenchRecord> pk = generatePk(300);
        writePk(pk, 0);
        List<BenchRecord> partitioned = generatePartitioned(90, 3);
        writePartitioned(partitioned, 40);

        List<String> progress = new ArrayList<>();
        List<TableCheck> checks = new LakeVerifier(lake, TABLES, progress::add).verify(data);

        assertThat(progress.get(0)).endsWith(", 1 lost, 1 duplicated, 1 mismatched");
        TableCheck logCheck = checks.get(0);
        assertThat(logCheck.checked()).isEqualTo(100);
        assertThat(logCheck.lost()).isEqualTo(1);
        assertThat(logCheck.duplicated()).isEqualTo(1);
        assertThat(logCheck.mismatched()).isEqualTo(1);
        TableCheck pkCheck = checks.get(1);
        assertThat(pkCheck.lost()).as("the first live key is missing").isEqualTo(1);
        assertThat(pkCheck.mismatched()).as("a deleted key is present").isEqualTo(1);
        assertThat(pkCheck.duplicated()).isZero();
        TableCheck partitionedCheck = checks.get(2);
        assertThat(partitionedCheck.mismatched()).as("row 40 in the wrong partition").isEqualTo(1);
        assertThat(partitionedCheck.lost()).isZero();
        assertThat(checks).noneMatch(TableCheck::exact);
    }

    private static Schema.Builder schema(boolean partitioned) {
        Schema.Builder schema = Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("user_id", DataTypes.INT())
                .column("amount", DataTypes.BIGINT())
                .column("category", DataTypes.STRING())
                .column("name", DataTypes.STRING())
                .column("payload", DataTypes.STRING());
        if (partitioned) {
            schema.column(BenchSchema.PARTITION_COLUMN, DataTypes.STRING().notNull());
        }
        return schema;
    }

    private List<BenchRecord> generateLog(int rows) {
        List<BenchRecord> records = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            records.add(data.nextLogRow());
        }
        return records;
    }

    /** The live rows after {@code operations} operations; asserts the stream deleted some key. */
    private List<BenchRecord> generatePk(int operations) throws Exception {
        long deletedKey = -1;
        for (int i = 0; i < operations; i++) {
            PkOps.Op op = data.nextPkOperation();
            if (op.delete()) {
                deletedKey = op.row().id();
            }
        }
        List<BenchRecord> live = new ArrayList<>();
        data.pkState().forEachLive((kind, row) -> live.add(row));
        long deleted = deletedKey;
        assertThat(deleted).as("the operations deleted a key").isNotNegative();
        assertThat(live).as("the deleted key stayed deleted").noneMatch(r -> r.id() == deleted);
        this.deletedKey = deletedKey;
        return live;
    }

    private List<BenchRecord> generatePartitioned(int rows, int partitions) {
        List<BenchRecord> records = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            records.add(data.nextPartitionedRow(SoakTables.partitionName((long) i * partitions / rows)));
        }
        return records;
    }

    private void writeLog(List<BenchRecord> rows) throws Exception {
        List<GenericRow> paimonRows = new ArrayList<>();
        rows.forEach(r -> paimonRows.add(paimonRow(r, null)));
        write(TABLES.log(), paimonRows);
    }

    /** Writes the live rows; {@code damaged} ≥ 0: leaves that one out and adds the deleted key back. */
    private void writePk(List<BenchRecord> live, int damaged) throws Exception {
        List<GenericRow> paimonRows = new ArrayList<>();
        for (int i = 0; i < live.size(); i++) {
            if (i != damaged) {
                paimonRows.add(paimonRow(live.get(i), null));
            }
        }
        if (damaged >= 0) {
            paimonRows.add(paimonRow(BenchRecord.generate(0, deletedKey, 0), null));
        }
        write(TABLES.primaryKey(), paimonRows);
    }

    /** {@code misplaced} ≥ 0: that row goes into a partition it was not written to. */
    private void writePartitioned(List<BenchRecord> rows, int misplaced) throws Exception {
        List<GenericRow> paimonRows = new ArrayList<>();
        for (BenchRecord r : rows) {
            String partition = r.id() == misplaced ? "elsewhere" : data.partitionOf(r.id());
            paimonRows.add(paimonRow(r, partition));
        }
        write(TABLES.partitioned(), paimonRows);
    }

    private static GenericRow paimonRow(BenchRecord r, String partition) {
        Object[] fields = {r.id(), r.userId(), r.amount(), BinaryString.fromString(r.category()),
                BinaryString.fromString(r.name()), BinaryString.fromString(r.payload())};
        if (partition == null) {
            return GenericRow.of(fields);
        }
        Object[] withPartition = Arrays.copyOf(fields, fields.length + 1);
        withPartition[fields.length] = BinaryString.fromString(partition);
        return GenericRow.of(withPartition);
    }

    private void write(TablePath path, List<GenericRow> rows) throws Exception {
        Table table = catalog.getTable(LakeTables.identifier(path));
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
            for (GenericRow row : rows) {
                write.write(row);
            }
            commit.commit(write.prepareCommit());
        }
    }
}
