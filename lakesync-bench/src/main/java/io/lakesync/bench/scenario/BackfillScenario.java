package io.lakesync.bench.scenario;

import io.lakesync.bench.cluster.BenchCluster;
import io.lakesync.bench.contender.ChildJvm;
import io.lakesync.bench.data.DataSpec;
import io.lakesync.bench.data.FlussLoader;
import io.lakesync.bench.data.LogData;
import io.lakesync.bench.data.PkOps;
import io.lakesync.bench.measure.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.fluss.metadata.TablePath;

/**
 * A backlog to sync: tables filled before the contender starts, timed from the contender's READY until every
 * bucket's lake offset equals its Fluss end offset.
 *
 * <ul>
 *   <li>backfill-log: one log table.
 *   <li>backfill-pk: one primary-key table; the first part of the operations is written, a KV snapshot of
 *       every bucket is awaited, then the rest is written, so a tiering loads the snapshot and then the
 *       changelog after it. A table prepared parked gets the rest at its release: Fluss's periodic KV snapshots
 *       would otherwise cover it while the table waits, and its first round would read no changelog.
 *   <li>many-tables: many small log tables.
 * </ul>
 */
public final class BackfillScenario implements Scenario {

    public static final String DATABASE = "bench";
    private static final long KV_SNAPSHOT_POLL_MILLIS = 200;
    private static final Duration KV_SNAPSHOT_MARGIN = Duration.ofSeconds(60);

    /**
     * The tables of a backfill.
     *
     * @param rowsPerTable rows (log) or operations (primary key) per table
     * @param baseFraction primary key: share of the operations written before the KV snapshot
     * @param kvSnapshotInterval primary key: the cluster's KV snapshot interval, to bound the wait for one
     */
    public record Shape(
            String name,
            String tablePrefix,
            boolean primaryKey,
            int tables,
            long rowsPerTable,
            int buckets,
            Duration freshness,
            long seed,
            double baseFraction,
            Duration kvSnapshotInterval) {

        public static Shape log(long rows, int buckets, Duration freshness, long seed) {
            return new Shape("backfill-log", "log", false, 1, rows, buckets, freshness, seed, 1.0, Duration.ZERO);
        }

        public static Shape primaryKey(
                long rows, int buckets, Duration freshness, long seed, double baseFraction, Duration kvInterval) {
            return new Shape("backfill-pk", "pk", true, 1, rows, buckets, freshness, seed, baseFraction, kvInterval);
        }

        public static Shape manyTables(int tables, long rowsPerTable, int buckets, Duration freshness, long seed) {
            return new Shape("many-tables", "many", false, tables, rowsPerTable, buckets, freshness, seed, 1.0,
                    Duration.ZERO);
        }

        /** A warm-up of this shape: the same layout and freshness, {@code tables} tables of {@code rowsPerTable}. */
        public Shape warmUp(long rowsPerTable, int tables) {
            return new Shape(name + " warm-up", "warmup_" + tablePrefix, primaryKey, tables, rowsPerTable, buckets,
                    freshness, seed, baseFraction, kvSnapshotInterval);
        }
    }

    private final Shape shape;
    private final BenchCluster cluster;
    private final Consumer<String> progress;
    private Long bytesPerTable;

    public BackfillScenario(Shape shape, BenchCluster cluster, Consumer<String> progress) {
        this.shape = shape;
        this.cluster = cluster;
        this.progress = progress;
    }

    @Override
    public String name() {
        return shape.name();
    }

    @Override
    public boolean hasBounds() {
        return true;
    }

    @Override
    public Workload prepare(String runTag, boolean withData, boolean parked) throws Exception {
        List<TablePath> paths = new ArrayList<>();
        for (int i = 0; i < shape.tables(); i++) {
            String table = shape.tables() == 1
                    ? shape.tablePrefix() + "_" + runTag
                    : String.format("%s_%s_%03d", shape.tablePrefix(), runTag, i);
            paths.add(TablePath.of(DATABASE, table));
        }
        for (TablePath path : paths) {
            if (parked) {
                cluster.createParkedTable(path, shape.primaryKey(), shape.buckets());
            } else {
                cluster.createTable(path, shape.primaryKey(), shape.buckets());
            }
        }
        Written written = new Written();
        Map<TablePath, Map<Integer, Long>> baseSnapshots = new LinkedHashMap<>();
        Map<TablePath, FlussLoader> tails = new LinkedHashMap<>();
        if (withData) {
            progress.accept(String.format("  writing %,d %s into %s", shape.rowsPerTable() * shape.tables(),
                    shape.primaryKey() ? "operations" : "rows",
                    shape.tables() == 1 ? paths.get(0) : shape.tables() + " tables"));
            for (int i = 0; i < paths.size(); i++) {
                FlussLoader loader = new FlussLoader(cluster.connection(), paths.get(i), tableSpec(i), progress);
                loader.writeBase();
                if (shape.primaryKey()) {
                    baseSnapshots.put(paths.get(i), awaitKvSnapshot(paths.get(i)));
                }
                if (shape.primaryKey() && parked) {
                    tails.put(paths.get(i), loader);
                } else {
                    loader.writeTail();
                    written.add(paths.get(i), loader);
                }
            }
        } else {
            written.bytes = shape.tables() * bytesPerTable();
        }
        Map<TablePath, Long> tableIds = new LinkedHashMap<>();
        Map<TablePath, Path> snapshotFolders = new LinkedHashMap<>();
        for (TablePath path : paths) {
            tableIds.put(path, cluster.tableId(path));
            cluster.lake().snapshotFolder(path).ifPresent(folder -> snapshotFolders.put(path, folder));
        }
        LakeCommitWatch lakeCommits = LakeCommitWatch.start(snapshotFolders);
        if (!parked) {
            cluster.queue(paths, shape.freshness());
        }
        return new BackfillWorkload(paths, written, baseSnapshots, tails, tableIds, lakeCommits, parked);
    }

    /** What is written into the tables so far, and what the lake must hold once it is tiered. */
    private final class Written {
        private final Map<TablePath, Long> expected = new LinkedHashMap<>();
        /** Fluss end offsets once the data was written: what every bucket must reach in the lake. */
        private final Map<TablePath, Map<Integer, Long>> endOffsets = new LinkedHashMap<>();
        private long bytes;

        void add(TablePath path, FlussLoader loader) throws Exception {
            expected.put(path, loader.expectedLakeRows());
            bytes += loader.logicalBytes();
            endOffsets.put(path, cluster.endOffsets(path, shape.buckets()).get());
        }
    }

    private DataSpec tableSpec(int table) {
        DataSpec first = shape.primaryKey()
                ? DataSpec.primaryKey(shape.rowsPerTable(), shape.seed(), shape.buckets(), shape.baseFraction())
                : DataSpec.log(shape.rowsPerTable(), shape.seed(), shape.buckets());
        return first.ofTable(table);
    }

    /** Payload bytes of one table's rows, by generating them (for runs that do not write them). */
    private long bytesPerTable() {
        if (bytesPerTable == null) {
            DataSpec spec = tableSpec(0);
            long bytes = 0;
            PkOps ops = shape.primaryKey() ? new PkOps(spec.seed()) : null;
            for (long i = 0; i < spec.rows(); i++) {
                bytes += (shape.primaryKey() ? ops.next().row() : LogData.row(spec.seed(), i)).logicalBytes();
            }
            bytesPerTable = bytes;
        }
        return bytesPerTable;
    }

    /**
     * Waits until every written bucket has a KV snapshot covering everything written so far; returns the
     * snapshots' log offsets.
     */
    private Map<Integer, Long> awaitKvSnapshot(TablePath path) throws Exception {
        Map<Integer, Long> ends = cluster.endOffsets(path, shape.buckets()).get();
        Duration limit = shape.kvSnapshotInterval().multipliedBy(2).plus(KV_SNAPSHOT_MARGIN);
        progress.accept("  waiting for KV snapshots of " + path + " (snapshot interval "
                + Durations.text(shape.kvSnapshotInterval()) + ")");
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            Map<Integer, Long> snapshots = cluster.kvSnapshotOffsets(path, shape.buckets());
            if (ends.entrySet().stream()
                    .allMatch(e -> e.getValue() == 0 || snapshots.getOrDefault(e.getKey(), -1L) >= e.getValue())) {
                return snapshots;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("No KV snapshot of " + path + " covered offsets " + ends + " within "
                        + Durations.text(limit) + " (latest: " + snapshots + "); check --kv-snapshot-interval.");
            }
            Thread.sleep(KV_SNAPSHOT_POLL_MILLIS);
        }
    }

    private Map<Integer, Long> latestKvSnapshots(TablePath table) {
        try {
            return cluster.kvSnapshotOffsets(table, shape.buckets());
        } catch (Exception e) {
            throw new IllegalStateException("Cannot read the KV snapshots of " + table, e);
        }
    }

    /** Buckets whose offset in {@code offsets} lies past the base KV snapshot's log offset. */
    static int bucketsPast(Map<Integer, Long> offsets, Map<Integer, Long> baseSnapshot) {
        return (int) offsets.entrySet().stream()
                .filter(e -> e.getValue() > baseSnapshot.getOrDefault(e.getKey(), Long.MAX_VALUE))
                .count();
    }

    private final class BackfillWorkload implements Workload {
        private final List<TablePath> tables;
        private final Written written;
        private final Map<TablePath, Map<Integer, Long>> baseSnapshots;
        /** Primary-key tables prepared parked: their tails, written at the release. */
        private final Map<TablePath, FlussLoader> tails;
        private final Map<TablePath, Long> tableIds;
        private final LakeCommitWatch lakeCommits;
        private boolean parked;

        BackfillWorkload(
                List<TablePath> tables,
                Written written,
                Map<TablePath, Map<Integer, Long>> baseSnapshots,
                Map<TablePath, FlussLoader> tails,
                Map<TablePath, Long> tableIds,
                LakeCommitWatch lakeCommits,
                boolean parked) {
            this.tables = tables;
            this.written = written;
            this.baseSnapshots = baseSnapshots;
            this.tails = tails;
            this.tableIds = tableIds;
            this.lakeCommits = lakeCommits;
            this.parked = parked;
        }

        @Override
        public List<TablePath> tables() {
            return tables;
        }

        @Override
        public long rows() {
            return shape.rowsPerTable() * shape.tables();
        }

        @Override
        public long logicalBytes() {
            return written.bytes;
        }

        @Override
        public DataSpec spec() {
            return tableSpec(0);
        }

        @Override
        public Map<TablePath, Long> expectedLakeRows() {
            return written.expected;
        }

        @Override
        public void release(Runnable beforeQueueing) throws Exception {
            if (parked) {
                for (Map.Entry<TablePath, FlussLoader> tail : tails.entrySet()) {
                    tail.getValue().writeTail();
                    written.add(tail.getKey(), tail.getValue());
                }
                tails.clear();
                cluster.queue(tables, shape.freshness(), beforeQueueing);
                parked = false;
            }
        }

        @Override
        public Outcome drive(ChildJvm contender, Duration timeout) throws Exception {
            AtomicInteger newerSnapshots = new AtomicInteger();
            Outcome outcome = SyncWait.await(cluster, written.endOffsets, tableIds, lakeCommits, contender, timeout, progress,
                    (table, firstCommit) -> {
                        if (baseSnapshots.containsKey(table)) {
                            newerSnapshots.addAndGet(bucketsPast(latestKvSnapshots(table), baseSnapshots.get(table)));
                        }
                    });
            if (newerSnapshots.get() == 0) {
                return outcome;
            }
            // Periodic KV snapshots go on: one taken after the tail was written may spare a bucket the changelog.
            String remark = newerSnapshots.get() + " of " + shape.buckets() * tables.size()
                    + " buckets had a KV snapshot newer than the base before the first commit";
            return new Outcome(outcome.finished(), outcome.wallSeconds(),
                    outcome.note() == null ? remark : outcome.note() + "; " + remark, outcome.lag());
        }
    }
}
