package io.lakesync.bench.scale;

import io.lakesync.bench.Cli;
import io.lakesync.bench.DataFolderOptions;
import io.lakesync.bench.cluster.BenchCluster;
import io.lakesync.bench.cluster.DataFolder;
import io.lakesync.bench.contender.ChildArgs;
import io.lakesync.bench.contender.ChildJvm;
import io.lakesync.bench.contender.ChildProtocol;
import io.lakesync.bench.contender.Contender;
import io.lakesync.bench.data.TrickleWriter;
import io.lakesync.bench.measure.LagTracker;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.fluss.FlussClient;
import io.lakesync.status.ActivityBoard;
import io.lakesync.status.ClusterObserver;
import io.lakesync.status.TableStatusTracker;
import io.lakesync.tiering.lake.LakeTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.TablePath;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code scale}: many lake tables on the embedded cluster with a steady trickle into all of them, synced by 1, 2,
 * 3, … lakesync instances (each its own JVM, contender B) in turn. Per phase it reports the per-table p99 sync
 * latency against the freshness, how long a status refresh of all tables takes (the service's
 * {@link TableStatusTracker} in the driver, refreshing back to back), each instance's CPU and peak heap, and what
 * the instances' rounds cost as their engines meter them (CPU per round with rows and per empty round).
 */
@Command(name = "scale", mixinStandardHelpOptions = true,
        description = "Many tables, a trickle into all of them, synced by 1, 2, 3 lakesync instances in turn.")
public final class ScaleMain implements Callable<Integer> {

    private static final long SAMPLE_MILLIS = 5000;
    /** Tables sampled at once (two requests each). */
    private static final int SAMPLE_WINDOW = 16;

    @Spec CommandSpec spec;

    @Option(names = "--tables", defaultValue = "1000", description = "Lake tables, one bucket each (default 1000).")
    int tables;

    @Option(names = "--instances", defaultValue = "1,2,3", split = ",",
            description = "Instance counts, one phase each (default 1,2,3).")
    List<Integer> instances;

    @Option(names = "--rate", defaultValue = "1000", description = "Rows per second in total, round-robin over the tables (default 1000).")
    int rate;

    @Option(names = "--freshness", defaultValue = "1min", description = "'table.datalake.freshness' of the tables (default 1min).")
    String freshness;

    @Option(names = "--duration", defaultValue = "3min", description = "Measured time per phase (default 3min).")
    String duration;

    @Option(names = "--warm-up", defaultValue = "1min", description = "Time per phase before measuring (default 1min).")
    String warmUp;

    @Option(names = "--heap", defaultValue = "1g", description = "Max heap of each instance JVM (default 1g).")
    String heap;

    @Mixin DataFolderOptions folder = new DataFolderOptions();

    public static void main(String[] args) {
        Cli.execute(new ScaleMain(), args);
    }

    /** One phase's figures. */
    record Phase(int instances, int tables, Duration freshness, int lagSamples, double p50OfTableP99s, double maxTableP99,
            double refreshMedianSeconds, double refreshMaxSeconds, int refreshes, List<Double> cpuCores,
            List<Long> peakHeapBytes, long rounds, double cpuMillisPerRound, long emptyRounds,
            double cpuMillisPerEmptyRound, double wallMillisPerEmptyRound, long rowsWritten) {}

    @Override
    public Integer call() throws Exception {
        Duration fresh = Cli.duration(freshness, "--freshness");
        Duration measured = Cli.duration(duration, "--duration");
        Duration warm = Cli.duration(warmUp, "--warm-up");
        Consumer<String> progress = Cli.progress("scale");
        List<Phase> phases = DataFolder.run(folder.dataDir, folder.keepData, "lakesync-scale-", progress,
                dir -> runIn(dir, fresh, measured, warm, progress));
        System.out.println(ScaleReport.render(phases, rate));
        return 0;
    }

    private List<Phase> runIn(Path dir, Duration fresh, Duration measured, Duration warm, Consumer<String> progress)
            throws Exception {
        try (BenchCluster cluster = BenchCluster.start(dir.resolve("cluster"), Duration.ofMinutes(1))) {
            List<TablePath> paths = new ArrayList<>();
            for (int i = 0; i < tables; i++) {
                TablePath path = TablePath.of("scale", String.format("t%04d", i));
                cluster.createTable(path, false, 1);
                paths.add(path);
                if ((i + 1) % 100 == 0) {
                    progress.accept("created " + (i + 1) + " tables");
                }
            }
            cluster.queue(paths, fresh);
            List<Phase> phases = new ArrayList<>();
            for (int count : instances) {
                progress.accept("phase: " + count + " instance(s)");
                phases.add(phase(cluster, dir.resolve("phase-" + count), paths, count, fresh, measured, warm, progress));
                progress.accept(phases.get(phases.size() - 1).toString());
            }
            return phases;
        }
    }

    private Phase phase(BenchCluster cluster, Path dir, List<TablePath> paths, int count, Duration fresh,
            Duration measured, Duration warm, Consumer<String> progress) throws Exception {
        List<ChildJvm> children = new ArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong written = new AtomicLong();
        List<Double> refreshSeconds = new CopyOnWriteArrayList<>();
        Thread writer = new Thread(() -> {
            try {
                TrickleWriter.run(cluster.connection(), paths, rate, 42, stop, written, new AtomicLong());
            } catch (Exception e) {
                throw new IllegalStateException("The trickle writer failed", e);
            }
        }, "scale-writer");
        Thread refresher = new Thread(() -> refreshes(cluster, stop, refreshSeconds), "scale-status-refresh");
        refresher.setDaemon(true);
        try {
            Files.createDirectories(dir);
            for (int i = 0; i < count; i++) {
                ChildArgs args = ChildArgs.forContender(cluster, Contender.B, dir.resolve("instance-" + i));
                children.add(ChildJvm.launch(args, heap, dir.resolve("instance-" + i + ".log")));
            }
            for (ChildJvm child : children) {
                child.await(ChildProtocol.Type.READY, Duration.ofMinutes(2));
            }
            writer.start();
            refresher.start();
            Map<TablePath, LagTracker> lags = new HashMap<>();
            paths.forEach(p -> lags.put(p, new LagTracker()));
            long start = System.nanoTime();
            List<Duration> cpuAtWarm = new ArrayList<>();
            long warmNanos = -1;
            while (System.nanoTime() - start < warm.plus(measured).toNanos()) {
                boolean counted = System.nanoTime() - start >= warm.toNanos();
                if (counted && warmNanos < 0) {
                    warmNanos = System.nanoTime();
                    refreshSeconds.clear();
                    children.forEach(c -> cpuAtWarm.add(c.cpu()));
                }
                sample(cluster, paths, lags, counted);
                Thread.sleep(SAMPLE_MILLIS);
            }
            double wall = (System.nanoTime() - warmNanos) / 1e9;
            List<Double> cores = new ArrayList<>();
            for (int i = 0; i < children.size(); i++) {
                cores.add((children.get(i).cpu().minus(cpuAtWarm.get(i))).toMillis() / 1000.0 / wall);
            }
            stop.set(true);
            writer.join();
            // A refresh still running is cut short: its length is unknown, and it must not load the next phase.
            refresher.interrupt();
            refresher.join(Duration.ofSeconds(30).toMillis());
            List<Double> refreshes = new ArrayList<>(refreshSeconds);
            Collections.sort(refreshes);
            List<Long> p99s = new ArrayList<>();
            lags.values().forEach(l -> p99s.add(Math.round(l.stats().p99Seconds() * 1000)));
            Collections.sort(p99s);
            List<Long> heaps = new ArrayList<>();
            long rounds = 0;
            long roundsCpu = 0;
            long empty = 0;
            long emptyCpu = 0;
            long emptyWall = 0;
            for (ChildJvm child : children) {
                Map<String, Object> stats = child.stop();
                heaps.add(number(stats, "peakHeapBytes"));
                rounds += number(stats, "rounds");
                roundsCpu += number(stats, "roundsCpuNanos");
                empty += number(stats, "emptyRounds");
                emptyCpu += number(stats, "emptyRoundsCpuNanos");
                emptyWall += number(stats, "emptyRoundsWallNanos");
            }
            int lagSamples = lags.values().stream().mapToInt(l -> l.stats().samples()).min().orElse(0);
            return new Phase(count, paths.size(), fresh, lagSamples,
                    LagTracker.percentile(p99s, 0.5) / 1000.0, p99s.get(p99s.size() - 1) / 1000.0,
                    refreshes.isEmpty() ? Double.NaN : refreshes.get(refreshes.size() / 2),
                    refreshes.isEmpty() ? Double.NaN : refreshes.get(refreshes.size() - 1), refreshes.size(), cores,
                    heaps, rounds, rounds == 0 ? 0 : roundsCpu / 1e6 / rounds, empty,
                    empty == 0 ? 0 : emptyCpu / 1e6 / empty, empty == 0 ? 0 : emptyWall / 1e6 / empty, written.get());
        } finally {
            stop.set(true);
            children.forEach(ChildJvm::close);
        }
    }

    private static long number(Map<String, Object> stats, String key) {
        Object value = stats.get(key);
        return value instanceof Number n ? n.longValue() : 0;
    }

    /**
     * One lag sample of every table, {@link #SAMPLE_WINDOW} tables' offset requests at a time: all 2,000 at once
     * make the tablet server pause the connection (backpressure), which stalled the writer and the status refresh.
     */
    private static void sample(BenchCluster cluster, List<TablePath> paths, Map<TablePath, LagTracker> lags,
            boolean counted) {
        long now = System.currentTimeMillis();
        for (int from = 0; from < paths.size(); from += SAMPLE_WINDOW) {
            List<CompletableFuture<Void>> pending = new ArrayList<>();
            for (TablePath path : paths.subList(from, Math.min(paths.size(), from + SAMPLE_WINDOW))) {
                pending.add(cluster.endOffsets(path, 1).thenCombine(cluster.lakeOffsets(path), (ends, lake) -> {
                    synchronized (lags) {
                        LagTracker lag = lags.get(path);
                        lag.observe(0, now, ends.getOrDefault(0, 0L), lake.getOrDefault(0, 0L));
                        lag.endSample(counted);
                    }
                    return null;
                }));
            }
            CompletableFuture.allOf(pending.toArray(new CompletableFuture[0])).join();
        }
    }

    /**
     * Refreshes the status of every table back to back, as the service would (with its default parallelism), on
     * a connection of its own (as a service has), recording each refresh's length.
     */
    private static void refreshes(BenchCluster cluster, AtomicBoolean stop, List<Double> seconds) {
        Configuration flussConf = new Configuration();
        flussConf.setString(ConfigOptions.BOOTSTRAP_SERVERS.key(), cluster.bootstrapServers());
        try (FlussClient fluss = FlussClient.forCommand(flussConf, LakeSyncOptions.STATUS_CALL_TIMEOUT.defaultValue());
                LakeTables lake = new LakeTables(cluster.lakeCatalogOptions());
                TableStatusTracker tracker = new TableStatusTracker(
                        new ClusterObserver(fluss, lake, Clock.systemUTC()), ActivityBoard.inMemory("scale"),
                        LakeSyncOptions.STATUS_REFRESH_PARALLELISM.defaultValue(), Clock.systemUTC(), () -> true,
                        2, LakeSyncOptions.STATUS_CALL_TIMEOUT.defaultValue(), Duration.ofMinutes(10))) {
            while (!stop.get() && !Thread.currentThread().isInterrupted()) {
                long start = System.nanoTime();
                tracker.refresh();
                if (!stop.get()) {
                    seconds.add((System.nanoTime() - start) / 1e9);
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("The status refresh failed", e);
        }
    }
}
