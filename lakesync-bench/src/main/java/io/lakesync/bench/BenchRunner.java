package io.lakesync.bench;

import io.lakesync.bench.cluster.BenchCluster;
import io.lakesync.bench.cluster.DataFolder;
import io.lakesync.bench.cluster.LakeTables;
import io.lakesync.bench.contender.ChildArgs;
import io.lakesync.bench.contender.ChildJvm;
import io.lakesync.bench.contender.ChildProtocol;
import io.lakesync.bench.contender.Contender;
import io.lakesync.bench.contender.ContenderFailedException;
import io.lakesync.bench.report.BenchReport;
import io.lakesync.bench.report.RunResult;
import io.lakesync.bench.report.Summaries;
import io.lakesync.bench.scenario.BackfillScenario;
import io.lakesync.bench.scenario.Outcome;
import io.lakesync.bench.scenario.Scenario;
import io.lakesync.bench.scenario.SteadyScenario;
import io.lakesync.bench.scenario.Workload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.fluss.metadata.TablePath;

/**
 * Runs a benchmark: one embedded cluster; then, for each run, every contender in turn (A, B, A, B, ...), each
 * on fresh tables of identical content and in its own JVM; then the report.
 *
 * <p>Per contender run: prepare and queue the tables → start the contender's JVM → READY (the clock starts,
 * CPU is read) → tiering: until the coordinator's lake offsets equal the Fluss end offsets of every bucket;
 * bound: until DONE → CPU and peak RSS read, contender stopped (peak heap) → files counted, lake rows checked
 * → tables dropped.
 */
public final class BenchRunner {

    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final BenchSettings settings;
    private final Consumer<String> progress;

    public BenchRunner(BenchSettings settings, Consumer<String> progress) {
        this.settings = settings;
        this.progress = progress;
    }

    public BenchReport run() throws Exception {
        return DataFolder.run(settings.dataDir(), settings.keepData(), "lakesync-bench-", progress, this::runIn);
    }

    private BenchReport runIn(Path dataDir) throws Exception {
        progress.accept("Starting the embedded Fluss cluster in " + dataDir);
        List<RunResult> results = new ArrayList<>();
        Map<String, String> descriptions = new LinkedHashMap<>();
        try (BenchCluster cluster = BenchCluster.start(dataDir.resolve("cluster"), settings.kvSnapshotInterval())) {
            Scenario scenario = scenario(cluster);
            List<Contender> contenders = new ArrayList<>();
            for (Contender c : settings.contenders()) {
                if (c.tiering() || scenario.hasBounds()) {
                    contenders.add(c);
                    descriptions.put(c.label(), c.description());
                } else {
                    progress.accept("Skipping " + c.label() + ": " + scenario.name() + " has no bounds.");
                }
            }
            Path logs = Files.createDirectories(dataDir.resolve("logs"));
            for (int run = 1; run <= settings.runs(); run++) {
                for (Contender contender : contenders) {
                    String tag = "r" + run + "_" + contender.label().toLowerCase().replace('-', '_');
                    progress.accept(String.format("[run %d/%d] %s: preparing", run, settings.runs(), contender.label()));
                    RunResult result = contender.tiering()
                            ? runTiering(cluster, scenario, contender, run, tag, dataDir, logs)
                            : runBound(cluster, scenario, contender, run, tag, dataDir, logs);
                    progress.accept(String.format("[run %d/%d] %s: %s", run, settings.runs(), contender.label(),
                            describe(result)));
                    results.add(result);
                }
            }
        }
        return new BenchReport(
                settings.scenario().label(),
                Instant.now().toString(),
                settings.reportSettings(),
                environment(),
                Summaries.summarize(descriptions, results));
    }

    private Scenario scenario(BenchCluster cluster) {
        BenchSettings s = settings;
        return switch (s.scenario()) {
            case BACKFILL_LOG -> new BackfillScenario(
                    BackfillScenario.Shape.log(s.rows(), s.buckets(), s.freshness(), s.seed()), cluster, progress);
            case BACKFILL_PK -> new BackfillScenario(BackfillScenario.Shape.primaryKey(s.rows(), s.buckets(),
                    s.freshness(), s.seed(), s.pkBaseFraction(), s.kvSnapshotInterval()), cluster, progress);
            case MANY_TABLES -> new BackfillScenario(BackfillScenario.Shape.manyTables(
                    s.tables(), s.rows(), s.buckets(), s.freshness(), s.seed()), cluster, progress);
            case STEADY -> new SteadyScenario(s.tables(), s.buckets(), s.freshness(), s.rate(), s.duration(), s.warmUp(), s.seed(),
                    cluster, progress);
        };
    }

    private RunResult runTiering(
            BenchCluster cluster, Scenario scenario, Contender contender, int run, String tag, Path dataDir, Path logs)
            throws Exception {
        Workload workload = scenario.prepare(tag, true);
        try {
            ChildArgs args = ChildArgs.forContender(cluster, contender, dataDir.resolve("work").resolve(tag));
            try (ChildJvm child = ChildJvm.launch(args, settings.heap(), logs.resolve(tag + ".log"))) {
                long launched = System.nanoTime();
                try {
                    child.await(ChildProtocol.Type.READY, START_TIMEOUT);
                } catch (ContenderFailedException | TimeoutException e) {
                    child.stop();
                    return RunResult.notStarted(contender.label(), run, workload.rows(), workload.logicalBytes(),
                            "did not start: " + e.getMessage());
                }
                double startup = (System.nanoTime() - launched) / 1e9;
                progress.accept(String.format("  %s ready after %.1f s; timing", contender.label(), startup));
                Duration cpuBefore = child.cpu();
                Outcome outcome = workload.drive(child, settings.timeout());
                Duration cpu = child.cpu().minus(cpuBefore);
                long peakRss = child.peakRssBytes();
                Map<String, Object> stats = child.stop();
                long files = 0;
                for (TablePath table : workload.tables()) {
                    files += cluster.lake().countFiles(table);
                }
                Long lakeRows = null;
                Long expected = null;
                if (outcome.finished() && !workload.expectedLakeRows().isEmpty()) {
                    lakeRows = 0L;
                    expected = 0L;
                    for (Map.Entry<TablePath, Long> e : workload.expectedLakeRows().entrySet()) {
                        lakeRows += cluster.lake().countRows(e.getKey());
                        expected += e.getValue();
                    }
                }
                return new RunResult(contender.label(), run, outcome.finished(), outcome.note(), workload.rows(),
                        workload.logicalBytes(), outcome.wallSeconds(), startup, cpu.toNanos() / 1e9, peakRss,
                        peakHeap(stats), files, lakeRows, expected, outcome.lag());
            }
        } finally {
            for (TablePath table : workload.tables()) {
                cluster.drop(table);
            }
        }
    }

    private RunResult runBound(
            BenchCluster cluster, Scenario scenario, Contender contender, int run, String tag, Path dataDir, Path logs)
            throws Exception {
        boolean read = contender == Contender.READ_BOUND;
        Workload workload = scenario.prepare(tag, read);
        List<TablePath> scratches = read ? List.of() : workload.tables().stream().map(LakeTables::scratchOf).toList();
        try {
            ChildArgs args = ChildArgs.forContender(cluster, contender, dataDir.resolve("work").resolve(tag));
            args.values().put(ChildArgs.TABLES, ChildArgs.tableList(workload.tables()));
            if (!read) {
                args.values().putAll(workload.spec().toArgs());
            }
            try (ChildJvm child = ChildJvm.launch(args, settings.heap(), logs.resolve(tag + ".log"))) {
                long launched = System.nanoTime();
                double startup;
                Duration cpuBefore;
                long start;
                try {
                    child.await(ChildProtocol.Type.READY, START_TIMEOUT);
                    start = System.nanoTime();
                    startup = (start - launched) / 1e9;
                    cpuBefore = child.cpu();
                } catch (ContenderFailedException | TimeoutException e) {
                    child.stop();
                    return RunResult.notStarted(contender.label(), run, workload.rows(), workload.logicalBytes(),
                            "did not start: " + e.getMessage());
                }
                String note = null;
                try {
                    child.await(ChildProtocol.Type.DONE, settings.timeout());
                } catch (ContenderFailedException | TimeoutException e) {
                    note = "DNF: " + e.getMessage();
                }
                double wall = (System.nanoTime() - start) / 1e9;
                Duration cpu = child.cpu().minus(cpuBefore);
                long peakRss = child.peakRssBytes();
                Map<String, Object> stats = child.stop();
                long files = 0;
                for (TablePath scratch : scratches) {
                    files += cluster.lake().countFiles(scratch);
                }
                return new RunResult(contender.label(), run, note == null, note, workload.rows(),
                        workload.logicalBytes(), wall, startup, cpu.toNanos() / 1e9, peakRss, peakHeap(stats), files,
                        null, null, null);
            }
        } finally {
            for (TablePath scratch : scratches) {
                cluster.lake().drop(scratch);
            }
            for (TablePath table : workload.tables()) {
                cluster.drop(table);
            }
        }
    }

    private static long peakHeap(Map<String, Object> stats) {
        Object value = stats.get("peakHeapBytes");
        return value instanceof Number n ? n.longValue() : -1;
    }

    private Map<String, Object> environment() {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("cores", Runtime.getRuntime().availableProcessors());
        env.put("java", System.getProperty("java.version"));
        env.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        env.put("contenderHeap", settings.heap());
        return env;
    }

    private static String describe(RunResult r) {
        if (!r.finished()) {
            return "DNF — " + r.note();
        }
        String lake = r.lakeRows() == null ? ""
                : r.lakeRowsMatch() ? String.format(", lake rows %,d ok", r.lakeRows())
                : String.format(", lake rows %,d but expected %,d", r.lakeRows(), r.expectedLakeRows());
        return String.format("%.2f s, %,.0f rows/s, CPU %.1f s, %d files%s", r.wallSeconds(),
                r.wallSeconds() > 0 ? r.rows() / r.wallSeconds() : 0, r.cpuSeconds(), r.filesWritten(), lake);
    }
}
