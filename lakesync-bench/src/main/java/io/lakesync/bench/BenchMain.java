package io.lakesync.bench;

import io.lakesync.bench.contender.Contender;
import io.lakesync.bench.report.BenchReport;
import io.lakesync.bench.report.JsonReport;
import io.lakesync.bench.report.MarkdownReport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lakesync bench}: measures lakesync's native tiering (B) against Fluss's own Flink tiering job (A) and
 * the read/write bounds on one embedded Fluss cluster. Prints a Markdown table on stdout, progress on stderr,
 * and writes the same figures as JSON.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Benchmark lakesync's native tiering (B) against Fluss's Flink tiering job (A), with the "
                + "Fluss-read and Paimon-write bounds, on one embedded Fluss cluster.")
public final class BenchMain implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Option(names = "--scenario", required = true,
            description = "backfill-log, backfill-pk, steady or many-tables.")
    String scenario;

    @Option(names = "--rows", description = "Rows (backfill-log), upserts+deletes (backfill-pk) or rows per "
            + "table (many-tables). Defaults: 1000000, 1000000, 1000.")
    Long rows;

    @Option(names = "--runs", defaultValue = "3", description = "Runs per contender; the contenders take turns, their order reversed every other run: A B, B A, A B ... (default 3).")
    int runs;

    @Option(names = "--contenders", defaultValue = "A,B,A-default,read-bound,write-bound", split = ",",
            description = "Who to measure, in order within each run (default: ${DEFAULT-VALUE}).")
    List<String> contenders;

    @Option(names = "--buckets", description = "Buckets per table. Defaults: 8 (backfills), 4 (steady), 1 (many-tables).")
    Integer buckets;

    @Option(names = "--freshness", description = "Table freshness 'table.datalake.freshness'. Defaults: 10min "
            + "(backfill-log, many-tables: no round is force-finished mid-backfill; 1min in warm mode), 5s "
            + "(backfill-pk), 30s (steady).")
    String freshness;

    @Option(names = "--tables", description = "Tables of steady (default 4) and many-tables (default 200).")
    Integer tables;

    @Option(names = "--rate", defaultValue = "10000", description = "steady: rows per second in total (default 10000).")
    long rate;

    @Option(names = "--duration", defaultValue = "3min", description = "steady: how long to write (default 3min).")
    String duration;

    @Option(names = "--warm-up", defaultValue = "0s",
            description = "steady: lag samples of this first part of --duration are not counted (default 0s).")
    String warmUp;

    @Option(names = "--cold", description = "Cold mode (backfill-log, backfill-pk, many-tables): the timed workload is "
            + "a fresh JVM's first, and wall and CPU count from the contender's launch (start-up included). Default: "
            + "warm (each contender first syncs a warm-up workload of the same shape in the same JVM, then the timed "
            + "one is queued; wall and CPU count from then; start-up and warm-up are reported apart).")
    boolean cold;

    @Option(names = "--warm-rows", description = "Warm mode: rows (operations) of each warm-up table. Defaults: "
            + "--rows / 4 (backfills), --rows (many-tables).")
    Long warmRows;

    @Option(names = "--warm-tables", description = "Warm mode: warm-up tables. Defaults: 24 (backfill-log), "
            + "4 (backfill-pk), --tables (many-tables).")
    Integer warmTables;

    @Option(names = "--warm-waves", description = "Warm mode: how many times the warm-up tables are synced, each "
            + "set queued once the one before is in the lake (default 2; many-tables 3).")
    Integer warmWaves;

    @Option(names = "--timeout", defaultValue = "10min",
            description = "Per run: time a contender gets to sync before it counts as DNF (default 10min).")
    String timeout;

    @Option(names = "--heap", defaultValue = "2g", description = "Max heap of every contender JVM (default 2g).")
    String heap;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the generated data (default 42).")
    long seed;

    @Option(names = "--kv-snapshot-interval", defaultValue = "30s",
            description = "Fluss KV snapshot interval of the embedded cluster (default 30s).")
    String kvSnapshotInterval;

    @Option(names = "--pk-base-fraction", defaultValue = "0.8", description = "backfill-pk: share of the "
            + "operations written before the KV snapshot; the rest is the changelog after it (default 0.8).")
    double pkBaseFraction;

    @Mixin DataFolderOptions folder = new DataFolderOptions();

    @Option(names = "--out", description = "JSON file to write (default: bench-<scenario>.json).")
    Path out;

    public static void main(String[] args) {
        Cli.execute(new BenchMain(), args);
    }

    @Override
    public Integer call() throws Exception {
        BenchSettings settings = Cli.checked(spec, this::settings);
        run(settings, Cli.progress("bench"), System.out);
        return 0;
    }

    /** Runs the benchmark, prints the Markdown table on {@code stdout} and writes the JSON file. */
    static BenchReport run(BenchSettings settings, Consumer<String> progress, PrintStream stdout) throws Exception {
        BenchReport report = new BenchRunner(settings, progress).run();
        stdout.println(MarkdownReport.render(report));
        JsonReport.write(report, settings.out());
        progress.accept("JSON written to " + settings.out().toAbsolutePath());
        return report;
    }

    BenchSettings settings() {
        ScenarioKind kind = ScenarioKind.fromLabel(scenario);
        long rowCount = rows != null ? rows : kind.defaultRows();
        int tableCount = tables != null ? tables : kind.defaultTables();
        boolean warm = !cold && kind != ScenarioKind.STEADY;
        if (!warm && (warmRows != null || warmTables != null || warmWaves != null)) {
            throw new IllegalArgumentException("--warm-rows, --warm-tables and --warm-waves apply to warm mode only "
                    + "(backfill-log, backfill-pk and many-tables without --cold).");
        }
        if (cold && kind == ScenarioKind.STEADY) {
            throw new IllegalArgumentException("--cold applies to backfill-log, backfill-pk and many-tables; steady "
                    + "always starts cold and leaves out its first lag samples instead (--warm-up).");
        }
        BenchSettings.Warm warmUpSize = warm ? new BenchSettings.Warm(
                warmRows != null ? warmRows : kind.defaultWarmRows(rowCount),
                warmTables != null ? warmTables : kind.defaultWarmTables(tableCount),
                warmWaves != null ? warmWaves : kind.defaultWarmWaves()) : null;
        return new BenchSettings(
                kind,
                rowCount,
                runs,
                contenders.stream().map(Contender::fromLabel).toList(),
                buckets != null ? buckets : kind.defaultBuckets(),
                freshness != null ? Cli.duration(freshness, "--freshness") : kind.defaultFreshness(warm),
                tableCount,
                rate,
                Cli.duration(duration, "--duration"),
                Cli.duration(warmUp, "--warm-up"),
                warmUpSize,
                Cli.duration(timeout, "--timeout"),
                heap,
                seed,
                Cli.duration(kvSnapshotInterval, "--kv-snapshot-interval"),
                pkBaseFraction,
                folder.dataDir,
                folder.keepData,
                out != null ? out : Path.of("bench-" + kind.label() + ".json"));
    }
}
