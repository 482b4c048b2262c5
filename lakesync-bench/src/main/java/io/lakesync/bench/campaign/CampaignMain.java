package io.lakesync.bench.campaign;

import io.lakesync.bench.Cli;
import io.lakesync.bench.DataFolderOptions;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lakesync campaign}: faults of every kind at random moments while the soak's mixed workload is written and
 * several lakesync instances share one PostgreSQL state, then the lake is checked row by row. Prints the report
 * (Markdown) on stdout, progress on stderr; exits 0 only when no row is lost, duplicated or mismatched, the lake
 * caught up after every fault, no instance stopped by itself and no status API lied.
 */
@Command(
        name = "campaign",
        mixinStandardHelpOptions = true,
        description = "Fault campaign: lakesync instances (own JVMs, shared PostgreSQL state, lake on a local S3 "
                + "server, Fluss through proxies) get --faults faults of every kind (kill -9, state database frozen "
                + "or restarted, lake errors or slowness, network delay or cut, clock skew) while a log, a "
                + "primary-key and a partitioned table are written; then the lake is checked row by row.")
public final class CampaignMain implements Callable<Integer> {

    static final int EXIT_FAILED = 1;

    @Spec CommandSpec spec;

    @Option(names = "--faults", defaultValue = "1000", description = "Faults to inject in all (default 1000).")
    int faults;

    @Option(names = "--kinds", split = ",",
            description = "Fault kinds to inject, comma-separated (default: every kind the cluster can do): kill, "
                    + "state-freeze, state-restart, lake-errors, lake-slow, net-delay, net-cut, clock-skew, "
                    + "tablet-server, coordinator.")
    List<String> kinds = List.of();

    @Option(names = "--instances", defaultValue = "2", description = "lakesync instances sharing the state (default 2).")
    int instances;

    @Option(names = "--tablet-servers", defaultValue = "1",
            description = "Tablet servers of the embedded Fluss cluster; 3 gives replication factor 3 and the "
                    + "tablet-server fault (default 1; more needs a local stack with 'local.tablet-servers').")
    int tabletServers;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the fault plan and the data (default 42).")
    long seed;

    @Option(names = "--freshness", defaultValue = "1s", description = "'table.datalake.freshness' of the tables (default 1s).")
    String freshness;

    @Option(names = "--rate", defaultValue = "100", description = "Rows (operations) per second into each table (default 100).")
    int rate;

    @Option(names = "--buckets", defaultValue = "2", description = "Buckets per table (per partition) (default 2).")
    int buckets;

    @Option(names = "--partition-every", defaultValue = "2min",
            description = "The partitioned table gets a new partition this often (default 2min).")
    String partitionEvery;

    @Option(names = "--min-hold", defaultValue = "200ms", description = "Shortest time a fault holds (default 200ms).")
    String minHold;

    @Option(names = "--max-hold", defaultValue = "2s", description = "Longest time a fault holds (default 2s).")
    String maxHold;

    @Option(names = "--catch-up-timeout", defaultValue = "2min",
            description = "A fault after which the lake has not caught up by then counts as not survived (default 2min).")
    String catchUpTimeout;

    @Option(names = "--final-timeout", defaultValue = "5min",
            description = "Time to get everything into the lake after the writer stops (default 5min).")
    String finalTimeout;

    @Option(names = "--heap", defaultValue = "512m", description = "Max heap of each instance JVM (default 512m).")
    String heap;

    @Mixin DataFolderOptions folder = new DataFolderOptions();

    public static void main(String[] args) {
        Cli.execute(new CampaignMain(), args);
    }

    @Override
    public Integer call() throws Exception {
        CampaignSettings settings = Cli.checked(spec, this::settings);
        return run(settings, Cli.progress("campaign"), System.out).passed() ? 0 : EXIT_FAILED;
    }

    /** Runs the campaign and prints its report on {@code stdout}. */
    static CampaignResult run(CampaignSettings settings, Consumer<String> progress, PrintStream stdout) throws Exception {
        CampaignResult result = new CampaignRunner(settings, progress).run();
        stdout.println(CampaignReport.render(result));
        return result;
    }

    CampaignSettings settings() {
        return new CampaignSettings(faults, kinds, instances, tabletServers, seed, Cli.duration(freshness, "--freshness"), rate, buckets,
                Cli.duration(partitionEvery, "--partition-every"), Cli.duration(minHold, "--min-hold"),
                Cli.duration(maxHold, "--max-hold"), Cli.duration(catchUpTimeout, "--catch-up-timeout"),
                Cli.duration(finalTimeout, "--final-timeout"), heap, folder.dataDir, folder.keepData);
    }
}
