package io.lakesync.bench.soak;

import io.lakesync.bench.Cli;
import io.lakesync.bench.DataFolderOptions;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lakesync soak}: SIGKILLs the lakesync service again and again while a mixed workload is written, then
 * checks the lake row by row. Prints the report (Markdown) on stdout, progress on stderr; exits 0 only when every
 * row is in the lake exactly once, the primary-key table equals what was written, and the service caught up
 * after every restart.
 */
@Command(
        name = "soak",
        mixinStandardHelpOptions = true,
        description = "Kill -9 soak: the lakesync service in its own JVM is SIGKILLed and restarted --kills times "
                + "while a log, a primary-key and a partitioned table are written, then the lake is checked row by row.")
public final class SoakMain implements Callable<Integer> {

    static final int EXIT_FAILED = 1;

    @Spec CommandSpec spec;

    @Option(names = "--kills", defaultValue = "100", description = "SIGKILLs (each followed by a restart) (default 100).")
    int kills;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the kill moments and the data (default 42).")
    long seed;

    @Option(names = "--freshness", defaultValue = "3s", description = "'table.datalake.freshness' of the tables (default 3s).")
    String freshness;

    @Option(names = "--rate", defaultValue = "200", description = "Rows (operations) per second into each table (default 200).")
    int rate;

    @Option(names = "--buckets", defaultValue = "2", description = "Buckets per table (per partition) (default 2).")
    int buckets;

    @Option(names = "--partition-every", defaultValue = "90s",
            description = "The partitioned table gets a new partition this often (default 90s).")
    String partitionEvery;

    @Option(names = "--max-gap", defaultValue = "5s",
            description = "A random kill strikes at most this long after the service caught up (default 5s).")
    String maxGap;

    @Option(names = "--catch-up-timeout", defaultValue = "3min",
            description = "A restart that has not caught up by then counts as a stall (default 3min).")
    String catchUpTimeout;

    @Option(names = "--final-timeout", defaultValue = "5min",
            description = "Time to get everything into the lake after the writer stops (default 5min).")
    String finalTimeout;

    @Option(names = "--heap", defaultValue = "1g", description = "Max heap of the service JVM (default 1g).")
    String heap;

    @Mixin DataFolderOptions folder = new DataFolderOptions();

    public static void main(String[] args) {
        Cli.execute(new SoakMain(), args);
    }

    @Override
    public Integer call() throws Exception {
        SoakSettings settings = Cli.checked(spec, this::settings);
        return run(settings, Cli.progress("soak"), System.out).passed() ? 0 : EXIT_FAILED;
    }

    /** Runs the soak and prints its report on {@code stdout}. */
    static SoakResult run(SoakSettings settings, Consumer<String> progress, PrintStream stdout) throws Exception {
        SoakResult result = new SoakRunner(settings, progress).run();
        stdout.println(SoakReport.render(result));
        return result;
    }

    SoakSettings settings() {
        return new SoakSettings(kills, seed, Cli.duration(freshness, "--freshness"), rate, buckets,
                Cli.duration(partitionEvery, "--partition-every"), Cli.duration(maxGap, "--max-gap"),
                Cli.duration(catchUpTimeout, "--catch-up-timeout"), Cli.duration(finalTimeout, "--final-timeout"), heap,
                folder.dataDir, folder.keepData);
    }
}
