package io.lakesync.tiering.lake;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.fs.FileStatus;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;

/**
 * Two tiering committers of one lake table released at the same instant, both fenced at the same snapshot, as a
 * stalled owner and the table's next owner would be: each race, exactly one commit lands and the other is refused,
 * and the refused one's data files are deleted, as a round deletes them. Whatever the interleaving, the table then
 * holds the winners' rows only, and its folder no data file that no snapshot references.
 */
public final class CommitRace {

    private CommitRace() {}

    /** Creates {@code path} as an append table of one BIGINT column in {@code lake}'s catalog. */
    public static void createTable(LakeTables lake, TablePath path) throws Exception {
        lake.catalog().createDatabase(path.getDatabaseName(), true);
        lake.catalog().createTable(
                Identifier.create(path.getDatabaseName(), path.getTableName()),
                Schema.newBuilder().column("id", DataTypes.BIGINT()).option("bucket", "-1").build(),
                false);
    }

    /**
     * Runs {@code races} races on {@code path} and checks each one and the table after them; the contenders open
     * the table through two catalogs of the same lake, as two instances would.
     */
    public static void runAndCheck(LakeTables firstLake, LakeTables secondLake, TablePath path, int races)
            throws Exception {
        LakeTables lake = firstLake;
        Set<Long> landedIds = new HashSet<>();
        for (int race = 0; race < races; race++) {
            long fencedAt = new LakeSnapshotCommitter(lake.load(path), false).latestSnapshotId();
            long firstId = 2L * race;
            Contender first = new Contender(lake, path, firstId, "race-" + race + "-first.offsets");
            Contender second = new Contender(secondLake, path, firstId + 1, "race-" + race + "-second.offsets");
            CyclicBarrier start = new CyclicBarrier(2);
            CompletableFuture<LakeCommitOutcome> firstOutcome = first.commitAfter(start, fencedAt);
            CompletableFuture<LakeCommitOutcome> secondOutcome = second.commitAfter(start, fencedAt);
            List<LakeCommitOutcome> outcomes =
                    List.of(firstOutcome.get(2, TimeUnit.MINUTES), secondOutcome.get(2, TimeUnit.MINUTES));

            assertThat(outcomes).as("race %d", race)
                    .hasExactlyElementsOfTypes(outcomes.get(0) instanceof LakeCommitOutcome.Committed
                            ? new Class<?>[] {LakeCommitOutcome.Committed.class, LakeCommitOutcome.Refused.class}
                            : new Class<?>[] {LakeCommitOutcome.Refused.class, LakeCommitOutcome.Committed.class});
            Contender winner = outcomes.get(0) instanceof LakeCommitOutcome.Committed ? first : second;
            Contender loser = winner == first ? second : first;
            loser.committer.abort(loser.messages);
            landedIds.add(winner.id);
        }

        FileStoreTable table = lake.load(path);
        assertThat(ids(table)).containsExactlyInAnyOrderElementsOf(landedIds);
        assertThat(dataFilesInFolder(table)).as("no refused round's data file is left behind")
                .isEqualTo(dataFilesReferenced(table));
    }

    private static final class Contender {
        final long id;
        final String offsetsPath;
        final LakeSnapshotCommitter committer;
        final List<CommitMessage> messages;

        Contender(LakeTables lake, TablePath path, long id, String offsetsPath) throws Exception {
            this.id = id;
            this.offsetsPath = offsetsPath;
            FileStoreTable table = lake.load(path);
            this.committer = new LakeSnapshotCommitter(table, false);
            BatchWriteBuilder builder = table.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite()) {
                write.write(GenericRow.of(id));
                this.messages = write.prepareCommit();
            }
        }

        CompletableFuture<LakeCommitOutcome> commitAfter(CyclicBarrier start, long fencedAt) {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    start.await(1, TimeUnit.MINUTES);
                } catch (Exception e) {
                    throw new IllegalStateException("The other contender never came", e);
                }
                return committer.commit(messages, offsetsPath, fencedAt);
            });
        }
    }

    private static List<Long> ids(FileStoreTable table) throws Exception {
        ReadBuilder read = table.newReadBuilder();
        List<Long> ids = new ArrayList<>();
        read.newRead().createReader(read.newScan().plan()).forEachRemaining(row -> ids.add(row.getLong(0)));
        return ids;
    }

    private static Set<String> dataFilesReferenced(FileStoreTable table) {
        Set<String> names = new HashSet<>();
        table.newReadBuilder().newScan().plan().splits()
                .forEach(split -> ((DataSplit) split).dataFiles().stream().map(DataFileMeta::fileName).forEach(names::add));
        return names;
    }

    private static Set<String> dataFilesInFolder(FileStoreTable table) throws Exception {
        Set<String> names = new HashSet<>();
        for (FileStatus status : table.fileIO().listFiles(table.location(), true)) {
            String name = status.getPath().getName();
            if (name.startsWith("data-")) {
                names.add(name);
            }
        }
        return names;
    }
}
