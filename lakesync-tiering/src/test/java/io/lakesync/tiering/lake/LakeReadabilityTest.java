package io.lakesync.tiering.lake;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readability of lake snapshots on real Paimon tables on disk: a deletion-vector primary-key table's snapshot is
 * readable only when it holds no level-0 file (the path where a round's compaction did not land: the snapshot is
 * registered as tiered only), and becomes so once level 0 is compacted; other tables are always readable.
 */
class LakeReadabilityTest {

    @TempDir
    Path warehouse;

    private LakeTables lakeTables;

    @BeforeEach
    void openCatalog() throws Exception {
        lakeTables = new LakeTables(Map.of("warehouse", warehouse.toString()));
        lakeTables.catalog().createDatabase("lake", true);
    }

    @AfterEach
    void close() throws Exception {
        lakeTables.close();
    }

    @Test
    void aDeletionVectorSnapshotWithLevelZeroFilesIsNotReadableUntilCompacted() throws Exception {
        FileStoreTable table = create("dv", true, true);
        assertThat(LakeReadability.compactsInRound(table)).isTrue();

        // Written without compaction, as a round whose compaction did not land leaves it: level 0 only.
        write(table.copy(Map.of("write-only", "true")), false, row(1, "a"), row(2, "b"));
        long uncompacted = table.snapshotManager().latestSnapshotId();
        assertThat(LakeReadability.readable(table, uncompacted)).isFalse();

        write(table, true);
        long compacted = table.snapshotManager().latestSnapshotId();
        assertThat(compacted).isGreaterThan(uncompacted);
        assertThat(LakeReadability.readable(table, compacted)).isTrue();
        assertThat(LakeReadability.readable(table, uncompacted)).as("an older snapshot stays as it was").isFalse();
    }

    @Test
    void tablesReadWithAllTheirFilesAreAlwaysReadable() throws Exception {
        FileStoreTable merged = create("pk", true, false);
        FileStoreTable log = create("log_dv", false, true);
        assertThat(LakeReadability.compactsInRound(merged)).isFalse();
        assertThat(LakeReadability.compactsInRound(log)).isFalse();

        write(merged.copy(Map.of("write-only", "true")), false, row(1, "a"));
        write(log, false, row(1, "a"));
        assertThat(LakeReadability.readable(merged, merged.snapshotManager().latestSnapshotId())).isTrue();
        assertThat(LakeReadability.readable(log, log.snapshotManager().latestSnapshotId())).isTrue();
    }

    private FileStoreTable create(String name, boolean primaryKey, boolean deletionVectors) throws Exception {
        Schema.Builder schema = Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("status", DataTypes.STRING())
                .option("bucket", primaryKey ? "1" : "-1")
                .option("deletion-vectors.enabled", Boolean.toString(deletionVectors));
        if (primaryKey) {
            schema.primaryKey("id");
        }
        lakeTables.catalog().createTable(Identifier.create("lake", name), schema.build(), false);
        return lakeTables.load(TablePath.of("lake", name));
    }

    private static GenericRow row(long id, String status) {
        return GenericRow.of(id, BinaryString.fromString(status));
    }

    private void write(FileStoreTable table, boolean fullCompaction, GenericRow... rows) throws Exception {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (IOManager io = IOManager.create(warehouse.resolve("io").toString());
                BatchTableWrite write = (BatchTableWrite) builder.newWrite().withIOManager(io);
                BatchTableCommit commit = builder.newCommit()) {
            for (GenericRow row : rows) {
                write.write(row);
            }
            if (fullCompaction) {
                write.compact(BinaryRow.EMPTY_ROW, 0, true);
            }
            commit.commit(write.prepareCommit());
        }
    }
}
