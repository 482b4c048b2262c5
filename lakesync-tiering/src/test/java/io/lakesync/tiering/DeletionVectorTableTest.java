package io.lakesync.tiering;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.tiering.maintenance.MaintenanceReport;
import io.lakesync.tiering.round.BucketProgress;
import io.lakesync.tiering.round.BucketRange;
import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.tiering.round.RoundResult;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.Snapshot;
import org.apache.paimon.deletionvectors.DeletionVectorsIndexFile;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;

/**
 * Deletion-vector tables ({@code paimon.deletion-vectors.enabled = true}) on the real stack, one cluster,
 * scenarios in sequence: a primary-key table under inserts, updates and deletes over several rounds has, after
 * every round, a readable lake snapshot covering everything Fluss holds whose content (read as union reads do,
 * at that snapshot, level 0 skipped) equals Fluss's state; maintenance fully compacts it (deleted rows
 * physically gone) and expires snapshots without losing the readable one; a restart resumes exactly once; a
 * log table with deletion vectors tiers every row once; a partition key Fluss cannot support is refused.
 */
class DeletionVectorTableTest extends TieringTestBase {

    private static final TablePath ORDERS = TablePath.of("fluss", "dv_orders");
    private static final TablePath CLICKS = TablePath.of("fluss", "dv_clicks");
    private static final int BUCKETS = 2;
    private static final String DELETION_VECTORS = "paimon.deletion-vectors.enabled";

    private final KeyedStatuses orders = new KeyedStatuses(ORDERS);
    private final Map<Long, String> expected = orders.expected();
    private final List<RoundResult> rounds = new CopyOnWriteArrayList<>();
    private final Map<TablePath, MaintenanceReport> reports = new ConcurrentHashMap<>();

    @Test
    void deletionVectorTablesAreTieredReadableCompactedAndResumedExactlyOnce() throws Exception {
        createTable(ORDERS, KeyedStatuses.table(BUCKETS, "500ms")
                .customProperty(DELETION_VECTORS, "true")
                .customProperty("lakesync.maintenance.full-compaction-interval", "0s")
                .build());
        createTable(CLICKS, lakeTable(Schema.newBuilder().column("id", DataTypes.BIGINT()).build(), BUCKETS, "500ms")
                .customProperty(DELETION_VECTORS, "true")
                .build());
        assertThat(lake.load(ORDERS).coreOptions().deletionVectorsEnabled()).isTrue();

        try (TieringService service = service("dv-1")) {
            for (int round = 0; round < 4; round++) {
                orders.put(round * 100, round * 100 + 300, "v" + round);
                orders.delete(round * 100 + 20, round * 100 + 60);
                assertReadableSnapshotEqualsFluss();
            }
            append(CLICKS, ids(0, 500));
            awaitTiered(CLICKS);
            assertThat(readLake(CLICKS, "id").stream().map(r -> r.get(0)).distinct().count()).isEqualTo(500);
            assertThat(readLake(CLICKS, "id")).hasSize(500);

            // Maintenance compacts fully: one file per bucket, no deletion vectors, only live rows stored.
            eventually(SYNC_TIMEOUT, () -> {
                orders.put(0, 1, "tick-" + System.nanoTime());
                assertReadableSnapshotEqualsFluss();
                assertFullyCompacted();
            });
            assertThat(reports.get(ORDERS).problem()).isNull();
            assertThat(reports.get(ORDERS).lastCompaction()).isNotNull();
            FileStoreTable table = lake.load(ORDERS);
            long readable = fluss.readableLakeSnapshot(ORDERS).get().getSnapshotId();
            assertThat(table.snapshotManager().earliestSnapshotId()).as("old snapshots expired").isGreaterThan(1L);
            assertThat(table.snapshotManager().snapshotExists(readable)).as("readable snapshot kept").isTrue();
        }

        // Written while no lakesync runs: the next one resumes from the coordinator's lake snapshot, exactly once.
        orders.put(1_000, 1_100, "after-restart");
        orders.delete(100, 140);
        try (TieringService service = service("dv-2")) {
            assertReadableSnapshotEqualsFluss();
        }
        assertEachOffsetTieredOnce();

        // Fluss 0.9.1 builds deletion-vector lake tables only with STRING partition keys.
        assertThatThrownBy(() -> createTable(TablePath.of("fluss", "dv_int_partitions"), TableDescriptor.builder()
                        .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).column("day", DataTypes.INT()).build())
                        .distributedBy(1, "id")
                        .partitionedBy("day")
                        .property("table.datalake.enabled", "true")
                        .customProperty(DELETION_VECTORS, "true")
                        .build()))
                .hasMessageContaining("String type");
    }

    /**
     * Waits until the coordinator's readable lake snapshot covers everything Fluss holds, then reads the lake at
     * that snapshot as a union read does: it has no level-0 file, is the tiered snapshot itself, and holds
     * exactly Fluss's state.
     */
    private void assertReadableSnapshotEqualsFluss() throws Exception {
        LakeSnapshot readable = awaitTiered(ORDERS);
        FileStoreTable table = lake.load(ORDERS);
        long id = readable.getSnapshotId();
        assertThat(fluss.latestLakeSnapshot(ORDERS).get().getSnapshotId()).as("tiered = readable").isEqualTo(id);
        assertThat(table.store().newScan().withSnapshot(id).withLevelFilter(level -> level == 0).plan().files())
                .as("level-0 files at the readable snapshot %s", id)
                .isEmpty();
        Snapshot snapshot = table.snapshotManager().snapshot(id);
        assertThat(snapshot.commitKind()).as("kind of the readable snapshot %s", id).isEqualTo(Snapshot.CommitKind.COMPACT);
        Map<Long, String> actual = new TreeMap<>();
        for (List<Object> row : readLakeAt(ORDERS, id, "order_id", "status")) {
            assertThat(actual.put((Long) row.get(0), (String) row.get(1))).as("duplicate key %s", row.get(0)).isNull();
        }
        assertThat(actual).isEqualTo(expected);
    }

    private void assertFullyCompacted() throws Exception {
        // The pass follows the round that tiered the last change.
        eventually(Duration.ofSeconds(20), () -> assertThat(lake.load(ORDERS).snapshotManager().latestSnapshot().commitUser())
                .isEqualTo("__lakesync_maintenance"));
        FileStoreTable table = lake.load(ORDERS);
        Snapshot latest = table.snapshotManager().latestSnapshot();
        List<ManifestEntry> files = table.store().newScan().withSnapshot(latest.id()).plan().files();
        Map<Integer, Integer> perBucket = new HashMap<>();
        files.forEach(f -> perBucket.merge(f.bucket(), 1, Integer::sum));
        assertThat(perBucket.values()).allSatisfy(n -> assertThat(n).isOne());
        Set<String> dataFiles = files.stream().map(f -> f.file().fileName()).collect(Collectors.toSet());
        assertThat(table.store().newIndexFileHandler().scan(latest, DeletionVectorsIndexFile.DELETION_VECTORS_INDEX))
                .as("deletion vectors on live data files after a full compaction")
                .allSatisfy(dv -> assertThat(dv.indexFile().dvRanges().keySet()).doesNotContainAnyElementsOf(dataFiles));
        assertThat(files.stream().mapToLong(f -> f.file().rowCount()).sum())
                .as("rows physically in the data files: the live keys only")
                .isEqualTo(expected.size());
    }

    /** Per bucket, the committed rounds' ranges follow each other without gap or overlap up to Fluss's end. */
    private void assertEachOffsetTieredOnce() throws Exception {
        Map<TableBucket, Long> tiered = new HashMap<>();
        for (RoundResult round : rounds) {
            if (!round.committed() || !round.assignment().tablePath().equals(ORDERS)) {
                continue;
            }
            for (BucketProgress bucket : round.buckets()) {
                if (!bucket.advanced()) {
                    continue;
                }
                BucketRange range = bucket.range();
                Long previous = tiered.get(range.bucket());
                if (previous != null) {
                    assertThat(range.logStartOffset()).as("start of a round of %s", range.bucket()).isEqualTo(previous);
                }
                tiered.put(range.bucket(), bucket.tieredEndOffset());
            }
        }
        Map<TableBucket, Long> ends = endOffsets(ORDERS);
        ends.values().removeIf(o -> o == 0);
        assertThat(tiered).isEqualTo(ends);
    }

    private TieringService service(String instance) throws Exception {
        TieringListener listener = new TieringListener() {
            @Override
            public void roundFinished(RoundResult result) {
                rounds.add(result);
            }

            @Override
            public void maintained(MaintenanceReport report) {
                reports.put(report.tablePath(), report);
            }
        };
        TieringService service = new TieringService(
                serviceConfig(instance, Map.of(
                        "maintenance.interval", "200ms",
                        "maintenance.snapshot.num-retained-min", "3",
                        "maintenance.snapshot.time-retained", "1s")),
                listener,
                RoundHooks.NONE,
                Clock.systemUTC());
        service.start();
        return service;
    }
}
