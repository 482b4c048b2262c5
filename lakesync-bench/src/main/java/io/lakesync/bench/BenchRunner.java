package io.lakesync.bench;

import io.lakesync.bench.cluster.BenchCluster;
import io.lakesync.bench.cluster.DataFolder;
import io.lakesync.bench.cluster.LakeTables;
import io.lakesync.bench.contender.ChildArgs;
import io.lakesync.bench.contender.ChildJvm;
import io.lakesync.bench.contender.ChildProtocol;
import io.lakesync.bench.contender.Contender;
import io.lakesync.bench.contender.ContenderFailedException;
import io.lakesync.bench.measure.MachineCpu;
import io.lakesync.bench.measure.ProcessStats;
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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 *
 * <p>Warm mode (the default of the backfills and many-tables) puts a warm-up between READY and the clock:
 * <pre>
 *   tiering: all tables parked ─► start ─► READY ─► each warm-up wave: released (queued), synced, lake rows
 *            checked, parked again ─► timed tables released ─► clock starts … synced
 *   bound:   warm-up and timed tables prepared ─► start ─► READY ─► its warm-up run ─► WARMED: clock starts … DONE
 * </pre>
 * CPU is read at READY (start-up), when the clock starts (start-up + warm-up) and at the end (timed window).
 * Every table of a run is dropped once its timed window is over, the warm-up's too: dropping a table deletes its
 * files, and on ext4 without a journal every file created in the next minute or more costs a search past the
 * inodes just freed (in a profile of lakesync's many-tables window right after its warm-up was dropped, 23% of
 * the rounds' CPU and 10% of the writers').
 * A cold backfill or many-tables run ({@code --cold}) times from the launch instead: wall and CPU cover start-up
 * and the sync ({@link BenchSettings#timedFromLaunch}).
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
            Scenario warmUpScenario = warmUpScenario(cluster);
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
                for (Contender contender : order(contenders, run)) {
                    String tag = "r" + run + "_" + contender.label().toLowerCase().replace('-', '_');
                    progress.accept(String.format("[run %d/%d] %s: preparing", run, settings.runs(), contender.label()));
                    RunResult result = contender.tiering()
                            ? runTiering(cluster, scenario, warmUpScenario, contender, run, tag, dataDir, logs)
                            : runBound(cluster, scenario, warmUpScenario, contender, run, tag, dataDir, logs);
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
            case STEADY -> new SteadyScenario(s.tables(), s.buckets(), s.freshness(), s.rate(), s.duration(), s.warmUp(), s.seed(),
                    cluster, progress);
            case BACKFILL_LOG, BACKFILL_PK, MANY_TABLES -> new BackfillScenario(backfillShape(), cluster, progress);
        };
    }

    private BackfillScenario.Shape backfillShape() {
        BenchSettings s = settings;
        return switch (s.scenario()) {
            case BACKFILL_LOG -> BackfillScenario.Shape.log(s.rows(), s.buckets(), s.freshness(), s.seed());
            case BACKFILL_PK -> BackfillScenario.Shape.primaryKey(s.rows(), s.buckets(), s.freshness(), s.seed(),
                    s.pkBaseFraction(), s.kvSnapshotInterval());
            case MANY_TABLES -> BackfillScenario.Shape.manyTables(
                    s.tables(), s.rows(), s.buckets(), s.freshness(), s.seed());
            case STEADY -> throw new IllegalStateException("steady is not a backfill");
        };
    }

    /**
     * The contenders' order in run {@code run} (from 1): as given in odd runs, reversed in even ones (A B, B A, A B
     * …). The cluster they share gets warmer with every run (its compilers still work in the first runs' timed
     * windows), so a fixed order would give the first contender the colder cluster in every run.
     */
    static List<Contender> order(List<Contender> contenders, int run) {
        if (run % 2 == 1) {
            return contenders;
        }
        List<Contender> reversed = new ArrayList<>(contenders);
        Collections.reverse(reversed);
        return reversed;
    }

    /** Warm mode: the warm-up workload's scenario (the timed one's shape at the warm-up size); else null. */
    private Scenario warmUpScenario(BenchCluster cluster) {
        BenchSettings.Warm warm = settings.warm();
        return warm == null ? null : new BackfillScenario(
                backfillShape().warmUp(warm.rowsPerTable(), warm.tables()), cluster, progress);
    }

    /**
     * A tiering contender's run. Warm mode: every table is parked before the contender starts; after READY it
     * syncs the warm-up wave by wave (each released, synced, lake rows checked, parked again), then the timed
     * tables are released and the timed window starts.
     */
    private RunResult runTiering(BenchCluster cluster, Scenario scenario, Scenario warmUpScenario,
            Contender contender, int run, String tag, Path dataDir, Path logs) throws Exception {
        List<TablePath> toDrop = new ArrayList<>();
        try {
            List<Workload> warmUps = prepareWarmUp(warmUpScenario, tag, true, true);
            warmUps.forEach(wave -> toDrop.addAll(wave.tables()));
            boolean warm = !warmUps.isEmpty();
            Workload workload = scenario.prepare(tag, true, warm);
            toDrop.addAll(workload.tables());
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
                long ready = System.nanoTime();
                double startup = (ready - launched) / 1e9;
                Duration startupCpu = child.cpu();
                progress.accept(String.format("  %s ready after %.1f s; %s", contender.label(), startup,
                        warm ? "warming up" : "timing"));
                String warmUpFailure = warm ? warmUp(cluster, warmUps, workload, child) : null;
                RunResult.WarmUp warmUpFigures = warm ? new RunResult.WarmUp(
                        (System.nanoTime() - ready) / 1e9, seconds(child.cpu().minus(startupCpu))) : null;
                Duration cpuBefore = settings.timedFromLaunch() ? Duration.ZERO : child.cpu();
                Optional<Duration> jitBefore =
                        settings.timedFromLaunch() ? Optional.of(Duration.ZERO) : child.compilerCpu();
                MachineWindow machine = MachineWindow.open();
                child.resume();
                Outcome outcome = warmUpFailure != null
                        ? new Outcome(false, 0, warmUpFailure, null)
                        : workload.drive(child, settings.timeout());
                Duration cpu = child.cpu().minus(cpuBefore);
                Double jit = jitSeconds(jitBefore, child.compilerCpu());
                double wall = settings.timedFromLaunch() ? startup + outcome.wallSeconds() : outcome.wallSeconds();
                RunResult.MachineLoad load = machine.close();
                long peakRss = child.peakRssBytes();
                Map<String, Object> stats = child.stop();
                long files = 0;
                for (TablePath table : workload.tables()) {
                    files += cluster.lake().countFiles(table);
                }
                Long lakeRows = null;
                Long expected = null;
                if (outcome.finished() && !workload.expectedLakeRows().isEmpty()) {
                    lakeRows = lakeRows(cluster, workload);
                    expected = workload.expectedLakeRows().values().stream().mapToLong(Long::longValue).sum();
                }
                return new RunResult(contender.label(), run, outcome.finished(), outcome.note(), workload.rows(),
                        workload.logicalBytes(), wall, startup, seconds(cpu), peakRss,
                        peakHeap(stats), files, lakeRows, expected, outcome.lag(), seconds(startupCpu),
                        warmUpFigures, load, jit);
            }
        } finally {
            for (TablePath table : toDrop) {
                cluster.drop(table);
            }
        }
    }

    /**
     * The warm-up's waves, tables named after {@code tag} and the wave, each {@code parked} until its turn. Empty
     * in cold mode.
     */
    private List<Workload> prepareWarmUp(Scenario warmUpScenario, String tag, boolean withData, boolean parked)
            throws Exception {
        List<Workload> waves = new ArrayList<>();
        if (warmUpScenario != null) {
            for (int wave = 1; wave <= settings.warm().waves(); wave++) {
                waves.add(warmUpScenario.prepare(wave == 1 ? tag : tag + "_w" + wave, withData, parked));
            }
        }
        return waves;
    }

    /**
     * Syncs the warm-up wave by wave: releases each, checks its lake rows and parks its tables again (so that no
     * round of them falls into the next wave or the timed window; they are dropped with the timed ones, see the
     * class comment). Then makes sure no timed table was tiered yet, and releases the timed tables with the
     * contender {@linkplain ChildJvm#pause paused}, so that the clock starts with all of them queued; the caller
     * resumes it as the clock starts. Returns why the run cannot go on, or null.
     */
    private String warmUp(BenchCluster cluster, List<Workload> waves, Workload timed, ChildJvm child)
            throws Exception {
        for (int index = 0; index < waves.size(); index++) {
            Workload wave = waves.get(index);
            wave.release(() -> { });
            Outcome outcome = wave.drive(child, settings.timeout());
            if (!outcome.finished()) {
                return "warm-up: " + outcome.note();
            }
            long lakeRows = lakeRows(cluster, wave);
            long expected = wave.expectedLakeRows().values().stream().mapToLong(Long::longValue).sum();
            if (lakeRows != expected) {
                return String.format("warm-up: lake rows %,d but expected %,d", lakeRows, expected);
            }
            cluster.park(wave.tables());
            if (index < waves.size() - 1) {
                progress.accept(String.format("  warm-up wave %d of %d synced in %.1f s, %,d lake rows ok",
                        index + 1, waves.size(), outcome.wallSeconds(), lakeRows));
                continue;
            }
            for (TablePath table : timed.tables()) {
                if (!cluster.lakeOffsets(table).get().isEmpty()) {
                    return "warm-up: timed table " + table + " was tiered before it was released";
                }
            }
            progress.accept(String.format("  warm-up synced in %.1f s, %,d lake rows ok; releasing the timed tables"
                    + " (the contender paused until the clock starts)", outcome.wallSeconds(), lakeRows));
        }
        timed.release(child::pause);
        return null;
    }

    private static long lakeRows(BenchCluster cluster, Workload workload) throws Exception {
        long rows = 0;
        for (TablePath table : workload.expectedLakeRows().keySet()) {
            rows += cluster.lake().countRows(table);
        }
        return rows;
    }

    /**
     * A bound's run. Warm mode: the bound first runs over warm-up tables in its JVM (READY → WARMED), then over the
     * timed ones (WARMED → DONE).
     */
    private RunResult runBound(BenchCluster cluster, Scenario scenario, Scenario warmUpScenario,
            Contender contender, int run, String tag, Path dataDir, Path logs) throws Exception {
        boolean read = contender == Contender.READ_BOUND;
        List<TablePath> toDrop = new ArrayList<>();
        List<TablePath> scratches = new ArrayList<>();
        try {
            Workload workload = scenario.prepare(tag, read, false);
            toDrop.addAll(workload.tables());
            ChildArgs args = ChildArgs.forContender(cluster, contender, dataDir.resolve("work").resolve(tag));
            args.values().put(ChildArgs.TABLES, ChildArgs.tableList(workload.tables()));
            if (!read) {
                args.values().putAll(workload.spec().toArgs());
            }
            // A bound runs its whole warm-up in its own JVM, in one go: it has no coordinator to hand out waves.
            List<Workload> warmUps = prepareWarmUp(warmUpScenario, tag, read, false);
            Workload warmUp = warmUps.isEmpty() ? null : warmUps.get(0);
            if (warmUp != null) {
                List<TablePath> warmUpTables = new ArrayList<>();
                warmUps.forEach(wave -> warmUpTables.addAll(wave.tables()));
                toDrop.addAll(warmUpTables);
                args.putWarmUp(warmUpTables, read ? Map.of() : warmUp.spec().toArgs());
            }
            if (!read) {
                toDrop.forEach(table -> scratches.add(LakeTables.scratchOf(table)));
            }
            try (ChildJvm child = ChildJvm.launch(args, settings.heap(), logs.resolve(tag + ".log"))) {
                long launched = System.nanoTime();
                double startup;
                Duration startupCpu;
                RunResult.WarmUp warmUpFigures = null;
                Duration cpuBefore;
                Optional<Duration> jitBefore;
                long start;
                MachineWindow machine;
                try {
                    child.await(ChildProtocol.Type.READY, START_TIMEOUT);
                    start = System.nanoTime();
                    startup = (start - launched) / 1e9;
                    startupCpu = child.cpu();
                    cpuBefore = startupCpu;
                    if (settings.timedFromLaunch()) {
                        start = launched;
                        cpuBefore = Duration.ZERO;
                    }
                    if (warmUp != null) {
                        child.await(ChildProtocol.Type.WARMED, settings.timeout());
                        long warmed = System.nanoTime();
                        cpuBefore = child.cpu();
                        warmUpFigures = new RunResult.WarmUp((warmed - start) / 1e9,
                                seconds(cpuBefore.minus(startupCpu)));
                        start = warmed;
                    }
                    jitBefore = settings.timedFromLaunch() ? Optional.of(Duration.ZERO) : child.compilerCpu();
                    machine = MachineWindow.open();
                } catch (ContenderFailedException | TimeoutException e) {
                    child.stop();
                    return RunResult.notStarted(contender.label(), run, workload.rows(), workload.logicalBytes(),
                            (warmUp == null ? "did not start: " : "did not start or warm up: ") + e.getMessage());
                }
                String note = null;
                try {
                    child.await(ChildProtocol.Type.DONE, settings.timeout());
                } catch (ContenderFailedException | TimeoutException e) {
                    note = "DNF: " + e.getMessage();
                }
                double wall = (System.nanoTime() - start) / 1e9;
                Duration cpu = child.cpu().minus(cpuBefore);
                Double jit = jitSeconds(jitBefore, child.compilerCpu());
                RunResult.MachineLoad load = machine.close();
                long peakRss = child.peakRssBytes();
                Map<String, Object> stats = child.stop();
                long files = 0;
                for (TablePath table : read ? List.<TablePath>of() : workload.tables()) {
                    files += cluster.lake().countFiles(LakeTables.scratchOf(table));
                }
                return new RunResult(contender.label(), run, note == null, note, workload.rows(),
                        workload.logicalBytes(), wall, startup, seconds(cpu), peakRss, peakHeap(stats), files,
                        null, null, null, seconds(startupCpu), warmUpFigures, load, jit);
            }
        } finally {
            for (TablePath scratch : scratches) {
                cluster.lake().drop(scratch);
            }
            for (TablePath table : toDrop) {
                cluster.drop(table);
            }
        }
    }

    /** The compilers' CPU between two readings, or null when either is unknown (no {@code /proc}, a dead JVM). */
    static Double jitSeconds(Optional<Duration> before, Optional<Duration> after) {
        if (before.isEmpty() || after.isEmpty() || after.get().compareTo(before.get()) < 0) {
            return null;
        }
        return seconds(after.get().minus(before.get()));
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
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
        String machine = r.machine() == null || r.machine().availableCpuSeconds() <= 0 ? ""
                : String.format("; machine busy %.0f%% (cluster CPU %.1f s)",
                        100 * r.machine().busyCpuSeconds() / r.machine().availableCpuSeconds(),
                        r.machine().clusterCpuSeconds());
        return String.format("%.2f s, %,.0f rows/s, CPU %.1f s, %d files%s%s", r.wallSeconds(),
                r.wallSeconds() > 0 ? r.rows() / r.wallSeconds() : 0, r.cpuSeconds(), r.filesWritten(), lake, machine);
    }

    /** The machine's and this process's CPU from {@link #open} to {@link #close}: the timed window's load. */
    private record MachineWindow(MachineCpu machineAtOpen, Duration clusterAtOpen) {

        static MachineWindow open() {
            return new MachineWindow(MachineCpu.now(), ProcessStats.cpu(ProcessHandle.current()));
        }

        /** The load since {@link #open}, or null where the machine's CPU cannot be read. */
        RunResult.MachineLoad close() {
            MachineCpu now = MachineCpu.now();
            if (machineAtOpen == null || now == null) {
                return null;
            }
            MachineCpu window = now.since(machineAtOpen);
            return new RunResult.MachineLoad(window.busySeconds(), window.totalSeconds(),
                    seconds(ProcessStats.cpu(ProcessHandle.current()).minus(clusterAtOpen)));
        }
    }
}
