package io.lakesync.bench.scenario;

import io.lakesync.bench.cluster.BenchCluster;
import io.lakesync.bench.contender.ChildJvm;
import io.lakesync.bench.data.DataSpec;
import io.lakesync.bench.data.TrickleWriter;
import io.lakesync.bench.measure.Durations;
import io.lakesync.bench.measure.LagTracker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.fluss.metadata.TablePath;

/**
 * Sustained load: while the contender runs, a writer appends at a fixed total rate, round-robin, into K log
 * tables of freshness F, for a fixed period; every second the lag of every table (age of its oldest record
 * not yet in the lake, see {@link LagTracker}) is sampled; samples of the warm-up at the start are not counted.
 */
public final class SteadyScenario implements Scenario {

    private static final long SAMPLE_MILLIS = 1000;

    private final int tableCount;
    private final int buckets;
    private final Duration freshness;
    private final long rate;
    private final Duration period;
    private final Duration warmUp;
    private final long seed;
    private final BenchCluster cluster;
    private final Consumer<String> progress;

    public SteadyScenario(
            int tableCount,
            int buckets,
            Duration freshness,
            long rate,
            Duration period,
            Duration warmUp,
            long seed,
            BenchCluster cluster,
            Consumer<String> progress) {
        this.tableCount = tableCount;
        this.buckets = buckets;
        this.freshness = freshness;
        this.rate = rate;
        this.period = period;
        this.warmUp = warmUp;
        this.seed = seed;
        this.cluster = cluster;
        this.progress = progress;
    }

    @Override
    public String name() {
        return "steady";
    }

    @Override
    public boolean hasBounds() {
        return false;
    }

    @Override
    public Workload prepare(String runTag, boolean withData, boolean parked) throws Exception {
        if (parked) {
            throw new IllegalArgumentException("steady has no warm mode (--warm); its --warm-up leaves out the first "
                    + "lag samples instead.");
        }
        List<TablePath> paths = new ArrayList<>();
        for (int i = 0; i < tableCount; i++) {
            TablePath path = TablePath.of(BackfillScenario.DATABASE, String.format("steady_%s_%03d", runTag, i));
            cluster.createTable(path, false, buckets);
            paths.add(path);
        }
        cluster.queue(paths, freshness);
        return new SteadyWorkload(paths);
    }

    private final class SteadyWorkload implements Workload {
        private final List<TablePath> tables;
        private final AtomicLong written = new AtomicLong();
        private final AtomicLong bytes = new AtomicLong();

        SteadyWorkload(List<TablePath> tables) {
            this.tables = tables;
        }

        @Override
        public List<TablePath> tables() {
            return tables;
        }

        @Override
        public long rows() {
            return written.get();
        }

        @Override
        public long logicalBytes() {
            return bytes.get();
        }

        @Override
        public DataSpec spec() {
            return null;
        }

        @Override
        public void release(Runnable beforeQueueing) {
            // Never parked: queued by prepare.
        }

        @Override
        public Map<TablePath, Long> expectedLakeRows() {
            return Map.of();
        }

        @Override
        public Outcome drive(ChildJvm contender, Duration timeout) throws Exception {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> writerFailure = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try {
                    write(stop);
                } catch (Throwable t) {
                    writerFailure.set(t);
                }
            }, "bench-steady-writer");
            LagTracker lag = new LagTracker();
            long start = System.nanoTime();
            writer.start();
            String note = null;
            try {
                long nextSample = start;
                int sample = 0;
                while (System.nanoTime() - start < period.toNanos()) {
                    Optional<String> failure = contender.failure();
                    if (failure.isPresent() || writerFailure.get() != null) {
                        note = failure.map(f -> "failed: " + f).orElse("writer failed: " + writerFailure.get());
                        break;
                    }
                    sample(lag, System.nanoTime() - start >= warmUp.toNanos());
                    if (++sample % 30 == 0) {
                        progress.accept(String.format("  %d s: %,d rows written, max lag so far %.1f s", sample,
                                written.get(), lag.stats().maxSeconds()));
                    }
                    nextSample += SAMPLE_MILLIS * 1_000_000;
                    long sleep = (nextSample - System.nanoTime()) / 1_000_000;
                    if (sleep > 0) {
                        Thread.sleep(sleep);
                    }
                }
            } finally {
                stop.set(true);
                writer.join();
            }
            double wall = (System.nanoTime() - start) / 1e9;
            LagTracker.LagStats stats = lag.stats();
            if (note == null) {
                note = String.format("max lag %.1f s %s freshness %s", stats.maxSeconds(),
                        stats.maxSeconds() <= freshness.toMillis() / 1000.0 ? "within" : "exceeds", Durations.text(freshness));
                return new Outcome(true, wall, note, stats);
            }
            return new Outcome(false, wall, note, stats);
        }

        private void sample(LagTracker lag, boolean counted) {
            long now = System.currentTimeMillis();
            for (TablePath table : tables) {
                Map<Integer, Long> ends = cluster.endOffsets(table, buckets).join();
                Map<Integer, Long> lake = cluster.lakeOffsets(table).join();
                ends.forEach((bucket, end) ->
                        lag.observe(table + "#" + bucket, now, end, lake.getOrDefault(bucket, 0L)));
            }
            lag.endSample(counted);
        }

        private void write(AtomicBoolean stop) throws Exception {
            TrickleWriter.run(cluster.connection(), tables, rate, seed, stop, written, bytes);
        }
    }
}
