package io.lakesync.tiering.lake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.manifest.ManifestCommittable;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.TableCommitImpl;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lake side of a round on a real Paimon table on disk. The tiering commit is conditional: it lands only if
 * no tiering snapshot landed after the round's fence, also when that snapshot lands between the committer's
 * own check and Paimon's atomic snapshot commit; other writers' snapshots do not stop it. Lake tables lakesync
 * cannot tier into are reported as such.
 */
class LakeSnapshotCommitterTest {

    private static final TablePath PATH = TablePath.of("lake", "fenced");

    @TempDir
    Path warehouse;

    private LakeTables lakeTables;

    @BeforeEach
    void createTable() throws Exception {
        lakeTables = new LakeTables(Map.of("warehouse", warehouse.toString()));
        lakeTables.catalog().createDatabase("lake", true);
        lakeTables.catalog().createTable(
                Identifier.create("lake", "fenced"),
                Schema.newBuilder().column("id", DataTypes.BIGINT()).option("bucket", "-1").build(),
                false);
    }

    @AfterEach
    void close() throws Exception {
        lakeTables.close();
    }

    @Test
    void refusedWhenAnotherTieringSnapshotLandedAfterTheFence() throws Exception {
        LakeSnapshotCommitter committer = new LakeSnapshotCommitter(lakeTables.load(PATH), false);
        long fencedAt = committer.latestSnapshotId();
        assertThat(committer.commit(rows(1), "next-owner.offsets", fencedAt))
                .isEqualTo(new LakeCommitOutcome.Committed(1));

        assertThat(committer.commit(rows(2), "stalled-owner.offsets", fencedAt))
                .isEqualTo(new LakeCommitOutcome.Refused(1));
        assertThat(committer.latestSnapshotId()).isEqualTo(1);
    }

    @Test
    void paimonsAtomicCommitRefusesATieringSnapshotThatLandedAfterTheCommittersCheck() throws Exception {
        FileStoreTable table = lakeTables.load(PATH);
        long fencedAt = 0;
        // The next owner commits right after the stalled owner's own check: only the snapshot commit sees it.
        commitAs(table, LakeSnapshotCommitter.COMMIT_USER, rows(1));
        FencedCatalogEnvironment fence = new FencedCatalogEnvironment(table.catalogEnvironment());
        fence.fence(fencedAt, "stalled-owner.offsets");
        FileStoreTable fenced =
                FileStoreTableFactory.create(
                        table.fileIO(), table.location(), table.schema(), new Options(Map.of("commit.max-retries", "2")), fence);

        assertThatThrownBy(() -> commitAs(fenced, LakeSnapshotCommitter.COMMIT_USER, rows(2)))
                .hasMessageContaining("Commit failed");
        assertThat(fence.refused()).isEqualTo(1);
        assertThat(table.snapshotManager().latestSnapshotId()).isEqualTo(1);
    }

    @Test
    void otherWritersSnapshotsDoNotStopTheRound() throws Exception {
        LakeSnapshotCommitter committer = new LakeSnapshotCommitter(lakeTables.load(PATH), false);
        long fencedAt = committer.latestSnapshotId();
        commitAs(lakeTables.load(PATH), "compaction-job", rows(1));

        assertThat(committer.commit(rows(2), "round.offsets", fencedAt)).isEqualTo(new LakeCommitOutcome.Committed(2));
    }

    @Test
    void aCommitThatAlsoCompactsLandsBothItsSnapshotsAndOnlyTheCompactedOneIsReadable() throws Exception {
        TablePath path = TablePath.of("lake", "deletion_vectors");
        lakeTables.catalog().createTable(
                Identifier.create("lake", "deletion_vectors"),
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT().notNull())
                        .primaryKey("id")
                        .option("bucket", "1")
                        .option("deletion-vectors.enabled", "true")
                        .build(),
                false);
        FileStoreTable table = lakeTables.load(path);
        assertThat(LakeReadability.compactsInRound(table)).isTrue();
        assertThat(LakeReadability.compactsInRound(lakeTables.load(PATH))).isFalse();
        List<CommitMessage> messages;
        BatchWriteBuilder builder = table.copy(Map.of("write-only", "false")).newBatchWriteBuilder();
        try (IOManager io = IOManager.create(warehouse.toString());
                BatchTableWrite write = (BatchTableWrite) builder.newWrite().withIOManager(io)) {
            write.write(GenericRow.of(1L));
            write.write(GenericRow.of(2L));
            messages = write.prepareCommit();
        }

        LakeSnapshotCommitter committer = new LakeSnapshotCommitter(table, false);
        assertThat(committer.commit(messages, "round.offsets", committer.latestSnapshotId()))
                .as("the fence lets the round's own APPEND snapshot pass")
                .isEqualTo(new LakeCommitOutcome.Committed(2));
        Snapshot append = table.snapshotManager().snapshot(1);
        Snapshot compact = table.snapshotManager().snapshot(2);
        assertThat(append.commitKind()).isEqualTo(Snapshot.CommitKind.APPEND);
        assertThat(compact.commitKind()).isEqualTo(Snapshot.CommitKind.COMPACT);
        assertThat(List.of(append, compact)).allSatisfy(s -> assertThat(TieringSnapshot.of(s))
                .hasValueSatisfying(t -> assertThat(t.offsetsPath()).isEqualTo("round.offsets")));
        assertThat(LakeReadability.readable(table, 1)).as("level 0 hidden from readers").isFalse();
        assertThat(LakeReadability.readable(table, 2)).isTrue();
        assertThat(committer.latestTieringSnapshot()).hasValue(new TieringSnapshot(2, "round.offsets"));
    }

    @Test
    void aSnapshotOfAFlussVersionBefore09CannotBeResumedFrom() throws Exception {
        ManifestCommittable committable = new ManifestCommittable(BatchWriteBuilder.COMMIT_IDENTIFIER);
        rows(1).forEach(committable::addFileCommittable);
        committable.addProperty(LakeSnapshotCommitter.OFFSETS_PROPERTY, "{\"0\":100}");
        try (TableCommitImpl commit = lakeTables.load(PATH).newCommit(LakeSnapshotCommitter.COMMIT_USER)) {
            commit.commit(committable);
        }

        LakeSnapshotCommitter committer = new LakeSnapshotCommitter(lakeTables.load(PATH), false);
        assertThatThrownBy(committer::latestTieringSnapshot)
                .isInstanceOf(LakeTableIncompatibleException.class)
                .hasMessageContaining("inline JSON")
                .hasMessageContaining("before 0.9");
    }

    @Test
    void aLakeTableThatIsNotAFileStoreTableIsIncompatible() {
        assertThatThrownBy(() -> lakeTables.load(TablePath.of("lake", "fenced$snapshots")))
                .isInstanceOf(LakeTableIncompatibleException.class)
                .hasMessageContaining("not a Paimon file store table");
    }

    private List<CommitMessage> rows(long id) throws Exception {
        BatchWriteBuilder builder = lakeTables.load(PATH).newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite()) {
            write.write(GenericRow.of(id));
            return write.prepareCommit();
        }
    }

    private static void commitAs(FileStoreTable table, String user, List<CommitMessage> messages) throws Exception {
        ManifestCommittable committable = new ManifestCommittable(BatchWriteBuilder.COMMIT_IDENTIFIER);
        messages.forEach(committable::addFileCommittable);
        try (TableCommitImpl commit = table.newCommit(user)) {
            commit.commit(committable);
        }
    }
}
