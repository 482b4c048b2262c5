package io.lakesync.bench;

import static io.lakesync.bench.Cli.atLeast;
import static io.lakesync.bench.Cli.heapSize;
import static io.lakesync.bench.Cli.positive;
import static io.lakesync.bench.measure.Durations.text;

import io.lakesync.bench.contender.Contender;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A validated benchmark invocation. Each bad value fails with a message naming its command-line option.
 *
 * @param rows rows (backfill-log), operations (backfill-pk) or rows per table (many-tables); unused by steady
 * @param tables tables of steady and many-tables
 * @param rate steady: rows per second written in total
 * @param duration steady: how long the writer runs
 * @param warmUp steady: how long after the start lag samples are not counted (a cold contender's first hand-out)
 * @param warm warm mode: each contender first syncs this warm-up workload in the same JVM, then the timed one;
 *     null for cold runs (the timed workload is the contender's first; see {@link #timedFromLaunch})
 * @param timeout per contender run: how long a tiering may take to sync before it counts as DNF
 * @param heap max heap of every contender JVM, e.g. {@code 2g}
 * @param dataDir where the cluster and the contenders keep their data; null for a fresh temporary folder
 * @param out the JSON file to write
 */
public record BenchSettings(
        ScenarioKind scenario,
        long rows,
        int runs,
        List<Contender> contenders,
        int buckets,
        Duration freshness,
        int tables,
        long rate,
        Duration duration,
        Duration warmUp,
        Warm warm,
        Duration timeout,
        String heap,
        long seed,
        Duration kvSnapshotInterval,
        double pkBaseFraction,
        Path dataDir,
        boolean keepData,
        Path out) {

    /**
     * The warm-up of warm mode: the scenario's shape (schema, buckets, freshness, primary key or log) at this size.
     *
     * @param rowsPerTable rows (log) or operations (primary key) of each warm-up table
     * @param tables warm-up tables of each wave
     * @param waves how many times the contender syncs such a set of tables, each set queued once the one before
     *     is in the lake
     */
    public record Warm(long rowsPerTable, int tables, int waves) {}

    public BenchSettings {
        if (scenario != ScenarioKind.STEADY) {
            atLeast(rows, 1, "--rows");
        }
        atLeast(runs, 1, "--runs");
        atLeast(buckets, 1, "--buckets");
        atLeast(tables, 1, "--tables");
        atLeast(rate, 1, "--rate");
        positive(freshness, "--freshness");
        positive(duration, "--duration");
        if (warmUp.isNegative() || warmUp.compareTo(duration) >= 0) {
            throw new IllegalArgumentException("--warm-up must be at least 0 and shorter than --duration ("
                    + text(duration) + "), but is " + text(warmUp) + ".");
        }
        if (warm != null) {
            if (scenario == ScenarioKind.STEADY) {
                throw new IllegalArgumentException("Warm mode applies to backfill-log, backfill-pk and many-tables; "
                        + "steady leaves out its first lag samples instead (--warm-up).");
            }
            atLeast(warm.rowsPerTable(), 1, "--warm-rows");
            atLeast(warm.tables(), 1, "--warm-tables");
            atLeast(warm.waves(), 1, "--warm-waves");
        }
        positive(timeout, "--timeout");
        positive(kvSnapshotInterval, "--kv-snapshot-interval");
        if (contenders.isEmpty()) {
            throw new IllegalArgumentException("--contenders names no contender; give one or more of "
                    + Contender.labels() + ".");
        }
        heapSize(heap, "--heap");
        if (!(pkBaseFraction > 0 && pkBaseFraction <= 1)) {
            throw new IllegalArgumentException(
                    "--pk-base-fraction must be in (0, 1], got " + pkBaseFraction + ".");
        }
        if (rows > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--rows must be at most " + Integer.MAX_VALUE + ", got " + rows + ".");
        }
    }

    /**
     * Whether the timed window of a run starts at the contender's launch rather than at READY: a cold backfill or
     * many-tables run, whose wall and CPU then include everything a fresh JVM spends before it is caught up
     * (JVM start, the engine's or job's start, any warm-up it runs at start-up), as after a restart.
     */
    public boolean timedFromLaunch() {
        return warm == null && scenario != ScenarioKind.STEADY;
    }

    /** The settings the report states next to the figures, for this scenario. */
    public Map<String, Object> reportSettings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        if (scenario != ScenarioKind.STEADY) {
            settings.put("mode", warm != null ? "warm" : "cold (wall and CPU from launch)");
        }
        switch (scenario) {
            case BACKFILL_LOG, BACKFILL_PK -> settings.put("rows", rows);
            case MANY_TABLES -> {
                settings.put("tables", tables);
                settings.put("rows per table", rows);
            }
            case STEADY -> {
                settings.put("tables", tables);
                settings.put("rate rows/s", rate);
                settings.put("duration", text(duration));
                if (!warmUp.isZero()) {
                    settings.put("warm-up", text(warmUp));
                }
            }
        }
        if (warm != null) {
            String wave = warm.tables() == 1 ? String.format("%,d rows", warm.rowsPerTable())
                    : String.format("%d tables × %,d rows", warm.tables(), warm.rowsPerTable());
            settings.put("warm-up", warm.waves() == 1 ? wave : warm.waves() + " waves of " + wave);
        }
        settings.put("buckets", buckets);
        settings.put("freshness", text(freshness));
        settings.put("runs", runs);
        settings.put("heap", heap);
        settings.put("seed", seed);
        if (scenario == ScenarioKind.BACKFILL_PK) {
            settings.put("pk base fraction", pkBaseFraction);
            settings.put("kv snapshot interval", text(kvSnapshotInterval));
        }
        return settings;
    }
}
