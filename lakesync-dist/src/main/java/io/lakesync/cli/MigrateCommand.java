package io.lakesync.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.migrate.FlinkRestClient;
import io.lakesync.migrate.Migration;
import io.lakesync.migrate.MigrationRefusedException;
import io.lakesync.migrate.MigrationUnfinishedException;
import io.lakesync.migrate.TakeOver;
import io.lakesync.migrate.TieringJob;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.fluss.metadata.TablePath;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lakesync migrate --flink-url URL [--dry-run]}: stops Fluss's Flink tiering jobs and lets the running
 * lakesync service take their tables over ({@link Migration}). Exit 0 when every table was taken over and
 * verifies OK, 1 when the migration was refused, stopped part-way (then with each table's state and the command
 * that finishes it) or a table differs, 2 for bad input.
 */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = "Moves lake tiering from Fluss's Flink tiering jobs to this lakesync: stops the jobs, waits "
                + "until lakesync committed every lake-enabled table, verifies them. Safe to run again.")
final class MigrateCommand implements Callable<Integer> {

    @Option(names = "--flink-url", required = true, paramLabel = "URL",
            description = "The Flink REST endpoint the tiering jobs run on, e.g. http://flink-jobmanager:8081.")
    private URI flinkUrl;

    @Option(names = "--dry-run", description = "Print the plan (jobs, tables, last lake snapshots); change nothing.")
    private boolean dryRun;

    @Option(names = "--confirm-job", paramLabel = "JOB_ID",
            description = "Stop this job although its parameters do not show which cluster and lake it tiers; "
                    + "repeatable.")
    private Set<String> confirmedJobs = new HashSet<>();

    @Option(names = "--flink-gone",
            description = "The Flink cluster of the tiering job shut down with it (application or per-job mode): "
                    + "when --flink-url does not answer, finish the take-over from the lake snapshots.")
    private boolean flinkGone;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "300",
            description = "How long to wait for lakesync to commit every table (default: ${DEFAULT-VALUE}).")
    private long timeoutSeconds;

    @Option(names = "--cancel-timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "How long a cancelled job may take to end in Flink (default: ${DEFAULT-VALUE}).")
    private long cancelTimeoutSeconds;

    @Mixin private ApiClient api;

    @Mixin private ClusterTarget target;

    @Spec private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        LakeSyncConfig served = target.load(api.dataDir());
        Migration.Options options =
                new Migration.Options(confirmedJobs, flinkGone, Duration.ofSeconds(cancelTimeoutSeconds));
        try (Migration migration =
                new Migration(new FlinkRestClient(flinkUrl), this::serviceRefusal, served, options)) {
            Migration.Plan plan = migration.plan();
            printPlan(plan, out);
            if (dryRun) {
                out.printf("Dry run: would stop %d Flink job(s) and let lakesync take over %d table(s). Nothing was "
                        + "changed.%n", plan.running().size(), plan.lastSnapshots().size());
                return 0;
            }
            try {
                migration.stopJobs(plan, out::println);
                List<TakeOver> takeOvers =
                        migration.awaitTakeOver(plan, Duration.ofSeconds(timeoutSeconds), out::println);
                return printReport(takeOvers, out) ? 0 : 1;
            } catch (MigrationUnfinishedException | FlinkRestClient.FlinkRestException e) {
                printTableStates(migration.tableStates(plan), out);
                String finish =
                        "lakesync migrate --flink-url " + flinkUrl + (migration.flinkGone() ? " --flink-gone" : "");
                err.println("lakesync: " + e.getMessage() + " Then finish with: " + finish + " (and this run's other "
                        + "options).");
                return 1;
            }
        } catch (MigrationRefusedException | FlinkRestClient.FlinkRestException e) {
            err.println("lakesync: " + e.getMessage());
            return 1;
        }
    }

    private Optional<String> serviceRefusal() throws Exception {
        JsonNode health;
        try {
            health = api.get("/health");
        } catch (ApiClient.ApiException e) {
            return Optional.of(e.getMessage());
        }
        String status = health.path("status").asText();
        if (!"UP".equals(status)) {
            return Optional.of("its /health is " + status + ": " + health.path("reasons"));
        }
        try {
            if (!api.get("/api/v1/service").path("enabled").asBoolean()) {
                return Optional.of("the service is switched off; run 'lakesync service enable' first.");
            }
        } catch (ApiClient.ApiException e) {
            return Optional.of(e.getMessage());
        }
        return Optional.empty();
    }

    private void printPlan(Migration.Plan plan, PrintWriter out) {
        out.println("Fluss tiering jobs on Flink at " + flinkUrl + ":");
        TextTable jobs = new TextTable("JOB", "NAME", "STATE", "FLUSS", "LAKE");
        for (TieringJob job : plan.jobs()) {
            jobs.row(job.id(), job.name(), job.state(), job.bootstrapServers(),
                    job.warehouse() == null ? null : job.warehouse() + " (" + job.lakeFormat() + ")");
        }
        jobs.print(out);
        out.println("Tables with lake sync enabled:");
        TextTable tables = new TextTable("TABLE", "LAST LAKE SNAPSHOT");
        plan.lastSnapshots().forEach((table, snapshot) -> tables.row(table, snapshot < 0 ? "none" : snapshot));
        tables.print(out);
    }

    private static void printTableStates(Map<TablePath, String> states, PrintWriter out) {
        TextTable tables = new TextTable("TABLE", "STATE");
        states.forEach(tables::row);
        tables.print(out);
    }

    /** Prints the per-table report, and the details of each table that does not verify; true when all do. */
    private static boolean printReport(List<TakeOver> takeOvers, PrintWriter out) {
        TextTable report = new TextTable("TABLE", "LAST BY FLINK", "FIRST BY LAKESYNC", "TAKE-OVER", "LAKE ROWS",
                "VERIFY");
        boolean ok = true;
        for (TakeOver takeOver : takeOvers) {
            report.row(takeOver.table(), snapshot(takeOver.lastByFlink()), snapshot(takeOver.firstByLakesync()),
                    takeOver.takeOverMillis() < 0 ? "-" : String.format("%.1f s", takeOver.takeOverMillis() / 1000.0),
                    takeOver.verification().lakeRows(), takeOver.verification().ok() ? "OK" : "DIFFERENT");
            ok &= takeOver.verification().ok();
        }
        report.print(out);
        takeOvers.stream().filter(t -> !t.verification().ok()).forEach(t -> t.verification().print(out));
        out.println(ok ? "Migration complete: lakesync tiers every table." : "Migration complete, but tables differ.");
        return ok;
    }

    private static String snapshot(long id) {
        return id < 0 ? "-" : String.valueOf(id);
    }
}
