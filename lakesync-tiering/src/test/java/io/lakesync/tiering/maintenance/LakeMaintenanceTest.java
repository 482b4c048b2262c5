package io.lakesync.tiering.maintenance;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.KeyedStatuses;
import io.lakesync.tiering.TieringListener;
import io.lakesync.tiering.TieringService;
import io.lakesync.tiering.TieringTestBase;
import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.tiering.round.RoundResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.consumer.ConsumerManager;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.junit.jupiter.api.Test;

/**
 * Lake maintenance on the real stack, one cluster, scenarios in sequence: a primary-key table under updates and
 * deletes for many rounds ends with one file per bucket holding exactly the live rows, few snapshots, the
 * coordinator's lake snapshot intact, files of a round aborted longer ago than the margin deleted and nothing
 * live lost;
 * a restart resumes exactly once; an ORC log table is compacted and reads back every row once; a table with a
 * bad maintenance option is reported, naming the option, while the others go on; a maintenance thread that is
 * stuck does not hold back any table's rounds.
 */
class LakeMaintenanceTest extends TieringTestBase {

    private static final TablePath ORDERS = TablePath.of("fluss", "maintained_orders");
    private static final TablePath CLICKS = TablePath.of("fluss", "maintained_clicks_orc");
    private static final TablePath ACCOUNTS = TablePath.of("fluss", "maintained_accounts");
    private static final TablePath BAD = TablePath.of("fluss", "maintained_bad_option");
    private static final int BUCKETS = 2;

    /** The freshness (1 s) plus the commit a round makes after reaching it. */
    private static final Duration ROUND_LIMIT = Duration.ofSeconds(2);

    private final KeyedStatuses orders = new KeyedStatuses(ORDERS);
    private final KeyedStatuses accounts = new KeyedStatuses(ACCOUNTS);
    private final Map<Long, String> expected = orders.expected();
    private long clicks;
    private volatile boolean blocked;
    private final Map<TablePath, MaintenanceReport> reports = new ConcurrentHashMap<>();
    private final List<RoundResult> rounds = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch stuck = new CountDownLatch(0);

    @Test
    void keepsLakeTablesHealthyWithoutTouchingTieringMetadataOrRounds() throws Exception {
        createTable(ORDERS, KeyedStatuses.table(BUCKETS, "1s")
                // Per-table overrides of the service defaults.
                .customProperty("lakesync.maintenance.compaction.min-files", "3")
                .customProperty("lakesync.maintenance.full-compaction-interval", "0s")
                .customProperty("lakesync.maintenance.snapshot.num-retained-min", "3")
                .build());

        try (TieringService service = service("maintenance-1")) {
            for (int round = 0; round < 4; round++) {
                put(round * 100, round * 100 + 300, "v" + round);
                delete(round * 100, round * 100 + 40);
                awaitTiered(ORDERS);
            }
            eventually(SYNC_TIMEOUT, () -> {
                tick();
                assertCompactedToLiveRows();
            });
            assertSnapshotsWithinRetention();
            assertLakeEqualsExpected();
            MaintenanceReport report = reports.get(ORDERS);
            assertThat(report.problem()).isNull();
            assertThat(report.bytesReclaimedTotal()).isPositive();
            assertThat(report.lastCompaction()).isNotNull();
            assertThat(report.lastExpiry()).isNotNull();
            assertThat(report.figures().smallFileRatio()).isLessThan(0.5);

            // Left by a round aborted longer ago than the margin (their age is set, the margin is an hour).
            Set<Path> orphans = abortedRoundFiles();
            assertThat(orphans).isNotEmpty().allSatisfy(f -> assertThat(f).exists());
            for (Path orphan : orphans) {
                Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
            }
            eventually(SYNC_TIMEOUT, () -> {
                tick();
                awaitTiered(ORDERS);
                assertThat(orphans).as("files of an aborted round, after the margin").allSatisfy(f -> assertThat(f).doesNotExist());
            });
            awaitTiered(ORDERS);
            assertLakeEqualsExpected();
        }

        // Written while no lakesync runs: the next one resumes from the coordinator's lake snapshot, exactly once.
        put(2_000, 2_100, "after-restart");
        delete(700, 720);
        try (TieringService service = service("maintenance-2")) {
            awaitTiered(ORDERS);
            assertLakeEqualsExpected();
        }
    }

    @Test
    void keepsAPrimaryKeyTablesSortedRunsBoundedLongBeforeItsFirstPass() throws Exception {
        createTable(ACCOUNTS, KeyedStatuses.table(BUCKETS, "1s").build());
        int stopTrigger = 8;
        try (TieringService service = service("maintenance-runs", "1h")) {
            for (int round = 0; round < 2 * stopTrigger; round++) {
                accounts.put(0, 200, "v" + round);
                awaitTiered(ACCOUNTS);
            }
            // Rounds may land while a compaction runs; the next round's check catches them up.
            eventually(SYNC_TIMEOUT, () -> {
                accounts.put(0, 1, "tick-" + System.nanoTime());
                awaitTiered(ACCOUNTS);
                assertThat(mostSortedRuns(ACCOUNTS)).isLessThanOrEqualTo(stopTrigger);
            });
            assertThat(reports).as("no pass within the interval").isEmpty();
            FileStoreTable table = lake.load(ACCOUNTS);
            assertThat(table.coreOptions().numSortedRunStopTrigger()).isEqualTo(stopTrigger);
            assertThat(table.snapshotManager().latestSnapshotOfUser(LakeMaintenance.COMMIT_USER))
                    .as("compactions between the rounds").isPresent();
            assertThat(readLake(ACCOUNTS, "order_id", "status")).hasSize(200);
        }
    }

    @Test
    void compactsAnOrcLogTableReportsBadOptionsAndNeverHoldsBackRounds() throws Exception {
        createTable(CLICKS, lakeTable(Schema.newBuilder().column("id", DataTypes.BIGINT()).build(), BUCKETS, "1s")
                .customProperty("paimon.file.format", "orc")
                .customProperty("lakesync.maintenance.compaction.min-files", "3")
                .build());
        createTable(BAD, lakeTable(Schema.newBuilder().column("id", DataTypes.BIGINT()).build(), 1, "1s")
                .customProperty("lakesync.maintenance.orphan.older-than", "1s")
                .build());

        try (TieringService service = service("maintenance-3")) {
            for (int round = 0; round < 3; round++) {
                click(1_000);
                append(BAD, ids(round, round + 1));
                awaitTiered(CLICKS);
            }
            eventually(SYNC_TIMEOUT, () -> {
                click(10);
                awaitTiered(CLICKS);
                assertThat(reports.get(CLICKS)).isNotNull();
                assertThat(reports.get(CLICKS).lastCompaction()).isNotNull();
                assertThat(filesPerBucket(CLICKS).values()).allSatisfy(n -> assertThat(n).isLessThan(3));
            });
            assertClicksEachOnce();
            assertThat(lake.load(CLICKS).coreOptions().fileFormatString()).isEqualTo("orc");
            assertThat(latestFiles(CLICKS)).allSatisfy(f -> assertThat(f.file().fileName()).endsWith(".orc"));

            eventually(SYNC_TIMEOUT, () -> assertThat(reports.get(BAD)).isNotNull());
            assertThat(reports.get(BAD).problem())
                    .contains("fluss.maintained_bad_option", "'lakesync.maintenance.orphan.older-than'", "at least 60 min");
            assertThat(readLake(BAD, "id")).hasSize(3);

            // The maintenance thread is stuck on one table: rounds of every table still commit within freshness.
            stuck = new CountDownLatch(1);
            try {
                eventually(SYNC_TIMEOUT, () -> {
                    click(10);
                    assertThat(blocked).isTrue();
                });
                int before = rounds.size();
                for (int round = 0; round < 2; round++) {
                    click(1_000);
                    awaitTiered(CLICKS);
                }
                assertClicksEachOnce();
                List<RoundResult> whileStuck = rounds.subList(before, rounds.size()).stream()
                        .filter(r -> r.assignment().tablePath().equals(CLICKS) && r.committed())
                        .toList();
                assertThat(whileStuck).isNotEmpty().allSatisfy(r -> assertThat(r.duration()).isLessThan(ROUND_LIMIT));
            } finally {
                stuck.countDown();
            }
        }
    }

    private void click(int count) throws Exception {
        append(CLICKS, ids(clicks, clicks + count));
        clicks += count;
    }

    private void assertClicksEachOnce() throws Exception {
        List<Long> ids = readLake(CLICKS, "id").stream().map(r -> (Long) r.get(0)).toList();
        assertThat(ids).hasSize((int) clicks).doesNotHaveDuplicates();
    }

    private TieringService service(String instance) throws Exception {
        return service(instance, "100ms");
    }

    private TieringService service(String instance, String interval) throws Exception {
        TieringListener listener = new TieringListener() {
            @Override
            public void roundFinished(RoundResult result) {
                rounds.add(result);
            }

            @Override
            public void maintained(MaintenanceReport report) {
                reports.put(report.tablePath(), report);
                try {
                    blocked = stuck.getCount() > 0;
                    stuck.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        TieringService service = new TieringService(
                serviceConfig(instance, Map.of(
                        "maintenance.interval", interval,
                        "maintenance.snapshot.time-retained", "1s",
                        "maintenance.orphan.older-than", "1h")),
                listener,
                RoundHooks.NONE,
                Clock.systemUTC());
        service.start();
        return service;
    }

    /** One more update, so rounds (and the maintenance passes they trigger) keep coming. */
    private void tick() throws Exception {
        put(0, 1, "tick-" + System.nanoTime());
    }

    /**
     * The newest snapshot is a compaction after every tiered change: one file per bucket, holding exactly the
     * live rows (deleted and replaced ones physically gone).
     */
    private void assertCompactedToLiveRows() throws Exception {
        awaitTiered(ORDERS);
        eventually(Duration.ofSeconds(10), () -> assertThat(lake.load(ORDERS).snapshotManager().latestSnapshot().commitUser())
                .isEqualTo(LakeMaintenance.COMMIT_USER));
        List<ManifestEntry> files = latestFiles(ORDERS);
        assertThat(filesPerBucket(ORDERS).values()).allSatisfy(n -> assertThat(n).isOne());
        assertThat(files).allSatisfy(f -> assertThat(f.file().deleteRowCount().orElse(0L)).isZero());
        assertThat(files.stream().mapToLong(f -> f.file().rowCount()).sum())
                .as("rows physically in the data files: the live keys only")
                .isEqualTo(expected.size());
    }

    private void assertSnapshotsWithinRetention() throws Exception {
        FileStoreTable table = lake.load(ORDERS);
        long lakeSnapshot = fluss.readableLakeSnapshot(ORDERS).get().getSnapshotId();
        Long earliest = table.snapshotManager().earliestSnapshotId();
        assertThat(earliest).as("old snapshots expired").isGreaterThan(1L);
        assertThat(earliest).as("the coordinator's lake snapshot kept").isLessThanOrEqualTo(lakeSnapshot);
        assertThat(table.snapshotManager().snapshotCount()).isLessThan(15);
        assertThat(new ConsumerManager(table.fileIO(), table.location()).consumer(LakeMaintenance.PIN_CONSUMER))
                .isPresent();
    }

    /** Data files a round wrote and never committed, as a round aborted by a crash leaves them. */
    private Set<Path> abortedRoundFiles() throws Exception {
        Set<Path> before = tableFiles(ORDERS);
        FileStoreTable table = lake.load(ORDERS).copy(Map.of("write-only", "true"));
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite()) {
            for (long id = 0; id < 10; id++) {
                write.write(org.apache.paimon.data.GenericRow.of(
                        5_000_000L + id, org.apache.paimon.data.BinaryString.fromString("never committed"),
                        0, 0L, Timestamp.fromEpochMillis(0)));
            }
            write.prepareCommit();
        }
        Set<Path> created = new HashSet<>(tableFiles(ORDERS));
        created.removeAll(before);
        return created;
    }

    private static Set<Path> tableFiles(TablePath path) throws Exception {
        Path folder = cluster.warehouse().resolve(path.getDatabaseName() + ".db").resolve(path.getTableName());
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(f -> f.getFileName().toString().startsWith("data-")).collect(Collectors.toSet());
        }
    }

    private static List<ManifestEntry> latestFiles(TablePath path) throws Exception {
        FileStoreTable table = lake.load(path);
        return table.store().newScan().withSnapshot(table.snapshotManager().latestSnapshotId()).plan().files();
    }

    private static int mostSortedRuns(TablePath path) throws Exception {
        Map<Integer, List<DataFileMeta>> buckets = new HashMap<>();
        latestFiles(path).forEach(f -> buckets.computeIfAbsent(f.bucket(), b -> new ArrayList<>()).add(f.file()));
        return buckets.values().stream().mapToInt(LakeMaintenance::sortedRuns).max().orElse(0);
    }

    private static Map<Integer, Integer> filesPerBucket(TablePath path) throws Exception {
        Map<Integer, Integer> counts = new HashMap<>();
        latestFiles(path).forEach(f -> counts.merge(f.bucket(), 1, Integer::sum));
        return counts;
    }

    private void put(long from, long to, String status) throws Exception {
        orders.put(from, to, status);
    }

    private void delete(long from, long to) throws Exception {
        orders.delete(from, to);
    }

    private void assertLakeEqualsExpected() throws Exception {
        Map<Long, String> actual = new TreeMap<>();
        for (List<Object> row : readLake(ORDERS, "order_id", "status")) {
            assertThat(actual.put((Long) row.get(0), (String) row.get(1))).as("duplicate key %s", row.get(0)).isNull();
        }
        assertThat(actual).isEqualTo(expected);
    }
}
