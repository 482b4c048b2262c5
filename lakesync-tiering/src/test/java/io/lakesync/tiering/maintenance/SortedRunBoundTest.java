package io.lakesync.tiering.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.local.ClusterTest;
import io.lakesync.local.S3Server;
import io.lakesync.tiering.lake.LakeTables;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A primary-key table on an object store stays readable however many rounds it gets between full passes:
 * a reader merges every sorted run of a bucket at once, one pooled connection each, so the runs are bounded
 * (Paimon's {@code num-sorted-run.stop-trigger}) while the rounds far outnumber the pool's connections.
 */
@ClusterTest
class SortedRunBoundTest {

    private static final TablePath PATH = TablePath.of("lake", "accounts");
    private static final int POOL = 10;
    private static final int ROUNDS = 2 * POOL + 4;
    private static final int KEYS = 200;

    @TempDir
    Path dir;

    @Test
    void roundsFarMoreThanThePoolsConnectionsLeaveAPrimaryKeyTableReadable() throws Exception {
        try (S3Server s3 = S3Server.start(dir.resolve("s3"), 0)) {
            s3.createBucket("lake");
            Map<String, String> catalog = new HashMap<>(s3.catalogOptions("lake", "warehouse"));
            catalog.put("s3.connection.maximum", Integer.toString(POOL));
            try (LakeTables lake = new LakeTables(catalog)) {
                lake.catalog().createDatabase("lake", true);
                lake.catalog().createTable(Identifier.create("lake", "accounts"), Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("balance", DataTypes.STRING())
                        .primaryKey("id")
                        .option("bucket", "2")
                        .build(), false);
                MaintenanceOptions options = new MaintenanceOptions(
                        true, Duration.ofHours(1), 100, Duration.ofDays(1), Duration.ofHours(1), 10,
                        MaintenanceOptions.MIN_ORPHAN_MARGIN);
                int stopTrigger = lake.load(PATH).coreOptions().numSortedRunStopTrigger();
                int compacted = 0;
                for (int round = 0; round < ROUNDS; round++) {
                    // As a round writes: every key updated, no compaction, one new level-0 file per bucket.
                    FileStoreTable writing = lake.load(PATH).copy(Map.of("write-only", "true"));
                    BatchWriteBuilder builder = writing.newBatchWriteBuilder();
                    try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                        for (long id = 0; id < KEYS; id++) {
                            write.write(GenericRow.of(id, BinaryString.fromString("round-" + round)));
                        }
                        commit.commit(write.prepareCommit());
                    }
                    LakeMaintenance.RunBound bound = new LakeMaintenance(
                            lake.load(PATH), options, dir.resolve("tmp"), Clock.systemUTC()).boundSortedRuns();
                    compacted += bound.compactedBuckets();
                    assertThat(mostSortedRuns(lake.load(PATH))).as("after round %d", round)
                            .isLessThan(stopTrigger)
                            .isLessThanOrEqualTo(bound.mostSortedRuns());
                }
                assertThat(compacted).as("buckets compacted on the way").isGreaterThanOrEqualTo(2 * (ROUNDS / stopTrigger));

                FileStoreTable table = lake.load(PATH);
                List<String> balances = CompletableFuture.supplyAsync(() -> readBalances(table))
                        .get(2, TimeUnit.MINUTES);
                assertThat(balances).hasSize(KEYS).containsOnly("round-" + (ROUNDS - 1));
            }
        }
    }

    private static int mostSortedRuns(FileStoreTable table) {
        Map<Integer, List<DataFileMeta>> buckets = new HashMap<>();
        for (ManifestEntry entry : table.store().newScan().plan().files()) {
            buckets.computeIfAbsent(entry.bucket(), b -> new ArrayList<>()).add(entry.file());
        }
        OptionalInt most = buckets.values().stream().mapToInt(LakeMaintenance::sortedRuns).max();
        return most.orElse(0);
    }

    private static List<String> readBalances(FileStoreTable table) {
        ReadBuilder read = table.newReadBuilder();
        List<String> balances = new ArrayList<>();
        try (RecordReader<InternalRow> reader =
                read.newRead().createReader(read.newScan().plan())) {
            reader.forEachRemaining(row -> balances.add(row.getString(1).toString()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return balances;
    }
}
