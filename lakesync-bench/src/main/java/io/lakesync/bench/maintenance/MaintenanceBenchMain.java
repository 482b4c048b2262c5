package io.lakesync.bench.maintenance;

import io.lakesync.bench.Cli;
import io.lakesync.bench.DataFolderOptions;
import io.lakesync.bench.cluster.BenchCluster;
import io.lakesync.bench.cluster.DataFolder;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.tiering.TieringService;
import io.lakesync.tiering.maintenance.MaintenanceOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lakesync maintenance-bench}: an hour of tiering rounds at 1-minute freshness, compressed in time (one
 * simulated minute is one round: a batch written, then tiered into both tables, at least {@code --minute}
 * long), into two primary-key tables that get the same upserts and deletes:
 * one with lake maintenance (the defaults, scaled by the same factor), one with it turned off. Prints, per
 * table, the data files and snapshots the lake keeps and how long a full scan of it takes.
 */
@Command(
        name = "maintenance-bench",
        mixinStandardHelpOptions = true,
        description = "An hour of 1-minute-freshness rounds, compressed in time, into a primary-key table with and one "
                + "without lake maintenance; reports files, snapshots and full-scan read time of both.")
public final class MaintenanceBenchMain implements Callable<Integer> {

    private static final TablePath WITH = TablePath.of("bench", "orders_with_maintenance");
    private static final TablePath WITHOUT = TablePath.of("bench", "orders_without_maintenance");
    private static final int SCANS = 3;

    @Spec CommandSpec spec;

    @Option(names = "--minutes", defaultValue = "60", description = "Simulated minutes (rounds) (default 60).")
    int minutes;

    @Option(names = "--minute", defaultValue = "1s",
            description = "Real length of a simulated minute: the tables' freshness (default 1s, 60x compressed).")
    String minute;

    @Option(names = "--ops-per-minute", defaultValue = "5000", description = "Upserts and deletes per minute (default 5000).")
    int opsPerMinute;

    @Option(names = "--keys", defaultValue = "50000", description = "Primary-key space (default 50000).")
    int keys;

    @Option(names = "--buckets", defaultValue = "4", description = "Buckets per table (default 4).")
    int buckets;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the operations (default 42).")
    long seed;

    @Mixin DataFolderOptions folder = new DataFolderOptions();

    /** How long the simulated hour took for real. */
    private double realSeconds;

    public static void main(String[] args) {
        Cli.execute(new MaintenanceBenchMain(), args);
    }

    @Override
    public Integer call() throws Exception {
        Duration simulatedMinute = Cli.checked(spec, () -> {
            Cli.atLeast(minutes, 1, "--minutes");
            Cli.atLeast(opsPerMinute, 1, "--ops-per-minute");
            Cli.atLeast(keys, 1, "--keys");
            Cli.atLeast(buckets, 1, "--buckets");
            Duration d = Cli.duration(minute, "--minute");
            Cli.positive(d, "--minute");
            return d;
        });
        Consumer<String> progress = Cli.progress("maintenance-bench");
        List<Figures> results = DataFolder.run(folder.dataDir, folder.keepData, "lakesync-maintenance-bench-", progress,
                dir -> run(dir, simulatedMinute, progress));
        System.out.println(markdown(results, simulatedMinute));
        return results.stream().allMatch(Figures::rowsMatch) ? 0 : 1;
    }

    private List<Figures> run(Path dir, Duration simulatedMinute, Consumer<String> progress) throws Exception {
        progress.accept("Starting the embedded Fluss cluster in " + dir);
        try (BenchCluster cluster = BenchCluster.start(dir.resolve("cluster"), Duration.ofSeconds(1))) {
            cluster.createTable(WITH, descriptor(simulatedMinute, true));
            cluster.createTable(WITHOUT, descriptor(simulatedMinute, false));
            Set<Long> live = new HashSet<>();
            try (TieringService service = new TieringService(serviceConfig(cluster, dir, simulatedMinute))) {
                service.start();
                write(cluster, simulatedMinute, live, progress);
            }
            Catalog catalog = io.lakesync.bench.cluster.LakeTables.openCatalog(cluster.lakeCatalogOptions());
            try {
                return List.of(
                        measure(cluster, catalog, WITH, "with maintenance", live.size()),
                        measure(cluster, catalog, WITHOUT, "without maintenance", live.size()));
            } finally {
                catalog.close();
            }
        }
    }

    private TableDescriptor descriptor(Duration simulatedMinute, boolean maintained) {
        return TableDescriptor.builder()
                .schema(Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("payload", DataTypes.STRING())
                        .primaryKey("id")
                        .build())
                .distributedBy(buckets)
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", simulatedMinute.toMillis() + " ms")
                .customProperty("lakesync." + LakeSyncOptions.MAINTENANCE_ENABLED.key(), Boolean.toString(maintained))
                .build();
    }

    /** The service with the maintenance defaults compressed by the same factor as the minute. */
    private static LakeSyncConfig serviceConfig(BenchCluster cluster, Path dir, Duration simulatedMinute) {
        double factor = simulatedMinute.toMillis() / 60_000.0;
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("fluss.bootstrap.servers", cluster.bootstrapServers());
        cluster.lakeCatalogOptions().forEach((k, v) -> settings.put(LakeSyncOptions.LAKE_PREFIX + k, v));
        settings.put(LakeSyncOptions.DATA_DIR.key(), dir.resolve("service").toString());
        for (var option : List.of(LakeSyncOptions.MAINTENANCE_INTERVAL, LakeSyncOptions.MAINTENANCE_FULL_COMPACTION_INTERVAL,
                LakeSyncOptions.MAINTENANCE_SNAPSHOT_TIME_RETAINED)) {
            settings.put(option.key(), Math.round(option.defaultValue().toMillis() * factor) + " ms");
        }
        // The orphan margin is not compressed: it must cover a round's commit in real time (at least an hour).
        settings.put(LakeSyncOptions.MAINTENANCE_ORPHAN_OLDER_THAN.key(),
                MaintenanceOptions.MIN_ORPHAN_MARGIN.toMinutes() + " min");
        return LakeSyncConfig.fromMap(settings, "maintenance benchmark");
    }

    /** One batch of upserts and deletes per simulated minute, the same into both tables. */
    private void write(BenchCluster cluster, Duration simulatedMinute, Set<Long> live, Consumer<String> progress)
            throws Exception {
        Random random = new Random(seed);
        try (Table with = cluster.connection().getTable(WITH); Table without = cluster.connection().getTable(WITHOUT)) {
            UpsertWriter a = with.newUpsert().createWriter();
            UpsertWriter b = without.newUpsert().createWriter();
            long start = System.nanoTime();
            for (int m = 1; m <= minutes; m++) {
                for (int op = 0; op < opsPerMinute; op++) {
                    long key = random.nextInt(keys);
                    GenericRow row = GenericRow.of(key, BinaryString.fromString("minute " + m + " op " + op));
                    if (live.contains(key) && random.nextInt(10) == 0) {
                        a.delete(row);
                        b.delete(row);
                        live.remove(key);
                    } else {
                        a.upsert(row);
                        b.upsert(row);
                        live.add(key);
                    }
                }
                a.flush();
                b.flush();
                // A simulated minute is one round: at least --minute long, and over once both tables tiered it.
                awaitTiered(cluster, WITH);
                awaitTiered(cluster, WITHOUT);
                long due = start + simulatedMinute.toNanos() * m;
                TimeUnit.NANOSECONDS.sleep(Math.max(0, due - System.nanoTime()));
                if (m % 10 == 0) {
                    progress.accept(String.format("simulated minute %d of %d after %.0f s, %d live keys", m, minutes,
                            (System.nanoTime() - start) / 1e9, live.size()));
                }
            }
            realSeconds = (System.nanoTime() - start) / 1e9;
        }
    }

    private static void awaitTiered(BenchCluster cluster, TablePath path) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        int buckets = cluster.connection().getAdmin().getTableInfo(path).get().getNumBuckets();
        while (true) {
            Map<Integer, Long> ends = new java.util.HashMap<>(cluster.endOffsets(path, buckets).get());
            ends.values().removeIf(o -> o == 0);
            Map<Integer, Long> lake;
            try {
                lake = cluster.lakeOffsets(path).get();
            } catch (Exception notYet) {
                lake = Map.of();
            }
            if (lake.entrySet().containsAll(ends.entrySet())) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(path + " did not catch up within 10 minutes: lake " + lake + ", Fluss " + ends);
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    private static Figures measure(BenchCluster cluster, Catalog catalog, TablePath path, String label, long liveKeys)
            throws Exception {
        FileStoreTable table = (FileStoreTable) catalog.getTable(io.lakesync.bench.cluster.LakeTables.identifier(path));
        long latest = table.snapshotManager().latestSnapshotId();
        List<ManifestEntry> files = table.store().newScan().withSnapshot(latest).plan().files();
        long bytes = files.stream().mapToLong(f -> f.file().fileSize()).sum();
        long snapshots = latest - table.snapshotManager().earliestSnapshotId() + 1;
        long[] scanMillis = new long[SCANS];
        long rows = 0;
        for (int i = 0; i < SCANS; i++) {
            long start = System.nanoTime();
            rows = cluster.lake().countRows(path);
            scanMillis[i] = (System.nanoTime() - start) / 1_000_000;
        }
        Arrays.sort(scanMillis);
        return new Figures(label, files.size(), cluster.lake().countFiles(path), bytes, snapshots,
                scanMillis[SCANS / 2], rows, liveKeys);
    }

    private String markdown(List<Figures> results, Duration simulatedMinute) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%d simulated minutes (1 min = one round, at least %d ms; %.0f s in all), %d ops/min "
                + "over %d keys, %d buckets%n%n", minutes, simulatedMinute.toMillis(), realSeconds, opsPerMinute, keys,
                buckets));
        out.append("| table | data files read | files on disk | data MiB | snapshots kept | full scan (median of ")
                .append(SCANS).append(") | rows = live keys |\n|---|---|---|---|---|---|---|\n");
        for (Figures f : results) {
            out.append(String.format("| %s | %d | %d | %.1f | %d | %d ms | %s |%n", f.label(), f.dataFiles(),
                    f.filesOnDisk(), f.dataBytes() / 1048576.0, f.snapshots(), f.scanMillis(),
                    f.rowsMatch() ? "yes (" + f.rows() + ")" : "NO: " + f.rows() + " vs " + f.liveKeys()));
        }
        return out.toString();
    }

    /** One table at the end of the run. */
    private record Figures(String label, long dataFiles, long filesOnDisk, long dataBytes, long snapshots,
            long scanMillis, long rows, long liveKeys) {
        boolean rowsMatch() {
            return rows == liveKeys;
        }
    }
}
