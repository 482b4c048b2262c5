package io.lakesync.tiering.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.local.ClusterTest;
import io.lakesync.local.S3Server;
import io.lakesync.tiering.lake.LakeTables;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.fs.FileStatus;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Orphan cleanup on an object store, where a file's age is the time the store received it: data files a crashed
 * round left behind are deleted once older than the margin, the committed ones stay.
 */
@ClusterTest
class ObjectStoreOrphansTest {

    private static final TablePath PATH = TablePath.of("lake", "orphaned");
    private static final Duration MARGIN = MaintenanceOptions.MIN_ORPHAN_MARGIN;

    @TempDir
    Path dir;

    @Test
    void filesOfARoundThatNeverCommittedAreDeletedFromS3AfterTheMargin() throws Exception {
        try (S3Server s3 = S3Server.start(dir.resolve("s3"), 0)) {
            s3.createBucket("lake");
            try (LakeTables lake = new LakeTables(s3.catalogOptions("lake", "warehouse"))) {
                lake.catalog().createDatabase("lake", true);
                lake.catalog().createTable(Identifier.create("lake", "orphaned"),
                        Schema.newBuilder().column("id", DataTypes.BIGINT()).option("bucket", "-1").build(), false);
                FileStoreTable table = lake.load(PATH);
                BatchWriteBuilder builder = table.newBatchWriteBuilder();
                try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                    write.write(GenericRow.of(1L));
                    commit.commit(write.prepareCommit());
                }
                Set<String> committed = dataFiles(table);
                List<CommitMessage> neverCommitted;
                try (BatchTableWrite write = table.newBatchWriteBuilder().newWrite()) {
                    write.write(GenericRow.of(2L));
                    neverCommitted = write.prepareCommit();
                }
                assertThat(neverCommitted).isNotEmpty();
                Set<String> orphans = dataFiles(table);
                orphans.removeAll(committed);
                assertThat(orphans).hasSize(1);

                MaintenanceOptions options = new MaintenanceOptions(
                        true, Duration.ofMinutes(1), 100, Duration.ofDays(1), Duration.ofHours(1), 10, MARGIN);
                Clock now = Clock.systemUTC();
                new LakeMaintenance(lake.load(PATH), options, dir.resolve("tmp"), now).run(OptionalLong.empty(), false);
                assertThat(dataFiles(table)).as("within the margin: a round may still commit them").containsAll(orphans);

                Clock pastTheMargin = Clock.fixed(Instant.now().plus(MARGIN).plusSeconds(60), ZoneOffset.UTC);
                LakeMaintenance.Outcome outcome = new LakeMaintenance(lake.load(PATH), options, dir.resolve("tmp"),
                        pastTheMargin).run(OptionalLong.empty(), false);
                assertThat(outcome.orphanFilesDeleted()).isPositive();
                assertThat(dataFiles(table)).isEqualTo(committed);
            }
        }
    }

    private static Set<String> dataFiles(FileStoreTable table) throws Exception {
        Set<String> names = new HashSet<>();
        for (FileStatus status : table.fileIO().listFiles(table.location(), true)) {
            if (status.getPath().getName().startsWith("data-")) {
                names.add(status.getPath().getName());
            }
        }
        return names;
    }
}
