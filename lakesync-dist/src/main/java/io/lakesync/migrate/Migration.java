package io.lakesync.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.fluss.FlussClient;
import io.lakesync.migrate.FlinkRestClient.FlinkUnreachableException;
import io.lakesync.tiering.lake.LakeTables;
import io.lakesync.tiering.lake.TieringSnapshot;
import io.lakesync.verify.TableVerifier;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.Snapshot;
import org.apache.paimon.utils.SnapshotManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves lake tiering from Fluss's Flink tiering jobs to lakesync.
 *
 * <pre>
 *   plan ──(refused: lakesync off or unhealthy, a job serving another cluster or lake,
 *    │      no Flink endpoint without --flink-gone)──> nothing changed
 *    ├── --dry-run: print the plan ──> nothing changed
 *    v
 *   stop the running tiering jobs (cancel: their enumerator hands the tables back to the coordinator at once)
 *    ├── Flink shows each job ended (a session cluster) ──────────────────────────┐
 *    ├── Flink's endpoint goes away after the cancel (a job cluster shut down) ────┤
 *    ├── --flink-gone and no endpoint (a job cluster gone before this run) ────────┤
 *    └── still not ended after --cancel-timeout ──> unfinished: say so, run again  │
 *    v                                                                             v
 *   wait until lakesync committed every lake-enabled table once (or it has nothing to tier); a table lakesync
 *   did not commit within RELEASE_AFTER is handed back to the coordinator (TableRelease) once no stopped job can
 *   hold it: at once when Flink showed the end, else when the coordinator re-queued every table since the
 *   cancel or its own tiering timeout passed
 *    │
 *    v
 *   verify every table, report: last snapshot by Flink, first by lakesync, take-over time
 * </pre>
 *
 * <p>Every step starts from what Flink, Fluss and the lake show, never from state of its own: a migration
 * interrupted anywhere is completed by running it again. The jobs' stop time is their end time in Flink, or when
 * Flink's endpoint was found gone after the cancel, and a tiering snapshot belongs to the Flink job when Paimon
 * committed it before that time.
 */
public final class Migration implements AutoCloseable {

    /** Whether the lakesync service can take over: empty when it is on and healthy, else the reason. */
    @FunctionalInterface
    public interface ServiceCheck {
        Optional<String> refusal() throws Exception;
    }

    /**
     * What the user asked for: jobs to stop although they do not show where they tier, whether an endpoint that
     * does not answer is a job cluster gone with its job, and how long a cancelled job may take to end.
     */
    public record Options(Set<String> confirmedJobs, boolean flinkGone, Duration cancelTimeout) {}

    /**
     * The jobs found, the ones to stop, and the tables to take over with their last lake snapshot;
     * {@code flinkAnswered} is false when no endpoint answered and the user said its cluster is gone.
     */
    public record Plan(
            List<TieringJob> jobs, List<TieringJob> running, Map<TablePath, Long> lastSnapshots,
            boolean flinkAnswered) {}

    private static final Logger LOG = LoggerFactory.getLogger(Migration.class);
    private static final Duration POLL = Duration.ofMillis(200);
    /** Far above lakesync's round interval for a table with records pending, far below Fluss's 2 minutes. */
    private static final Duration RELEASE_AFTER = Duration.ofSeconds(15);
    /**
     * Fluss 0.9.1's tiering timeout (2 minutes, hard-coded in {@code LakeTableTieringManager}) plus its 15 s check
     * interval: by then the coordinator has taken every table from a holder that stopped heartbeating.
     */
    static final Duration COORDINATOR_TIMEOUT = Duration.ofSeconds(135);

    private final FlinkRestClient flink;
    private final ServiceCheck service;
    private final LakeSyncConfig served;
    private final Options options;
    /** Opened once the jobs are known to serve this cluster: a refusal needs no connection to it. */
    private FlussClient fluss;
    private LakeTables lake;
    private TableVerifier verifier;
    private TableRelease release;
    /** Since when lakesync's commits count as the take-over: the cancel, then the stop once known. */
    private long since;
    private JobsStopped stopped;

    public Migration(FlinkRestClient flink, ServiceCheck service, LakeSyncConfig served, Options options) {
        this.flink = flink;
        this.service = service;
        this.served = served;
        this.options = options;
    }

    /** Checks lakesync and every running tiering job; refuses when lakesync cannot take over what they serve. */
    public Plan plan() throws Exception {
        Optional<String> refusal = service.refusal();
        if (refusal.isPresent()) {
            throw new MigrationRefusedException("lakesync cannot take over: " + refusal.get());
        }
        List<TieringJob> jobs;
        boolean flinkAnswered = true;
        try {
            jobs = TieringJob.list(flink);
        } catch (FlinkUnreachableException e) {
            if (!options.flinkGone()) {
                throw new MigrationRefusedException(e.getMessage() + " If the tiering job ran on a Flink cluster of "
                        + "its own (application or per-job mode) that shut down when it was cancelled, run again with "
                        + "--flink-gone to finish the take-over.");
            }
            LOG.info("Flink at {} does not answer and --flink-gone was given: its jobs count as stopped", flink.url());
            jobs = List.of();
            flinkAnswered = false;
        }
        List<TieringJob> running = jobs.stream().filter(TieringJob::running).toList();
        for (TieringJob job : running) {
            checkServesThisCluster(job);
        }
        fluss = FlussClient.forCommand(served.flussClientConfiguration());
        lake = new LakeTables(served.lakeCatalogOptions());
        verifier = new TableVerifier(fluss, lake);
        release = new TableRelease(fluss.tieringCoordinator());
        Map<TablePath, Long> lastSnapshots = new LinkedHashMap<>();
        for (TablePath table : verifier.lakeEnabledTables()) {
            lastSnapshots.put(table, verifier.registeredLakeSnapshot(table));
        }
        return new Plan(jobs, running, lastSnapshots, flinkAnswered);
    }

    /**
     * Cancels the running jobs and waits until Flink shows each ended, or its endpoint goes away after accepting
     * the cancel: a job cluster (application or per-job mode) shuts down with its only job.
     */
    public void stopJobs(Plan plan, Consumer<String> progress) throws Exception {
        since = System.currentTimeMillis();
        if (!plan.flinkAnswered()) {
            stopped = new JobsStopped(since, JobsStopped.How.ALREADY_GONE, epochs(plan));
            progress.accept("Flink at " + flink.url() + " does not answer (--flink-gone): finishing the take-over "
                    + "from the lake snapshots.");
            return;
        }
        if (plan.running().isEmpty()) {
            since = plan.jobs().stream().mapToLong(TieringJob::endTime).max().orElse(since);
            stopped = new JobsStopped(since, JobsStopped.How.ENDED_IN_FLINK, Map.of());
            return;
        }
        Map<Long, Long> epochsBefore = epochs(plan);
        for (TieringJob job : plan.running()) {
            try {
                flink.cancel(job.id());
            } catch (FlinkUnreachableException e) {
                if (job == plan.running().get(0)) {
                    throw e;
                }
                clusterShutDown(epochsBefore, progress);
                return;
            }
            LOG.info("Cancelling Flink tiering job {} ({})", job.id(), job.name());
            progress.accept("Cancelling Flink job " + job.id() + " (" + job.name() + ")...");
        }
        long deadline = System.nanoTime() + options.cancelTimeout().toNanos();
        long endTime = since;
        for (TieringJob job : plan.running()) {
            Optional<JsonNode> state;
            try {
                while (!ended(state = flink.job(job.id()))) {
                    if (System.nanoTime() > deadline) {
                        throw stillRunning(job, state);
                    }
                    Thread.sleep(POLL.toMillis());
                }
            } catch (FlinkUnreachableException e) {
                clusterShutDown(epochsBefore, progress);
                return;
            }
            String end = state.get().path("state").asText();
            endTime = Math.max(endTime, state.get().path("end-time").asLong(since));
            LOG.info("Flink tiering job {} is {}", job.id(), end);
            progress.accept("Flink job " + job.id() + " is " + end + ".");
        }
        since = endTime;
        stopped = new JobsStopped(endTime, JobsStopped.How.ENDED_IN_FLINK, epochsBefore);
    }

    private static boolean ended(Optional<JsonNode> job) {
        return job.filter(j -> !TieringJob.running(j.path("state").asText())).isPresent();
    }

    private MigrationUnfinishedException stillRunning(TieringJob job, Optional<JsonNode> state) {
        String shown = state.map(j -> j.path("state").asText()).orElse("unknown to Flink");
        LOG.warn("Flink tiering job {} is still {} {} s after it was cancelled", job.id(), shown,
                options.cancelTimeout().toSeconds());
        return new MigrationUnfinishedException("Flink job " + job.id() + " is still " + shown + " "
                + options.cancelTimeout().toSeconds() + " s after it was cancelled: a task of it does not stop. "
                + "Make Flink end it (restart the TaskManager that runs the stuck task).");
    }

    private void clusterShutDown(Map<Long, Long> epochsBefore, Consumer<String> progress) {
        since = System.currentTimeMillis();
        stopped = new JobsStopped(since, JobsStopped.How.CLUSTER_SHUT_DOWN, epochsBefore);
        LOG.info("Flink at {} stopped answering after accepting the cancel: its cluster shut down with the job",
                flink.url());
        progress.accept("Flink at " + flink.url() + " stopped answering after the cancel: the job's cluster shut "
                + "down with it (application or per-job cluster).");
    }

    /** Whether Flink's side is gone, so running the migration again needs --flink-gone. */
    public boolean flinkGone() {
        return stopped != null && !stopped.endedInFlink();
    }

    /** Each lake-enabled table's current tiering epoch by table id; tables the coordinator does not track left out. */
    private Map<Long, Long> epochs(Plan plan) throws Exception {
        Map<Long, Long> epochs = new HashMap<>();
        for (TablePath table : plan.lastSnapshots().keySet()) {
            long id = tableId(table);
            release.currentEpoch(id).ifPresent(epoch -> epochs.put(id, epoch));
        }
        return epochs;
    }

    /**
     * Waits until lakesync committed each table once after the jobs stopped (or the table has nothing left to
     * tier), then verifies it. A table lakesync has not committed RELEASE_AFTER into the wait is handed back to
     * the coordinator, once no stopped job can still hold it: at once when Flink showed the jobs ended; else
     * once the coordinator shows no table held by them any more (every table done, or its tiering epoch moved
     * since the cancel), or after the coordinator's own timeout.
     */
    public List<TakeOver> awaitTakeOver(Plan plan, Duration timeout, Consumer<String> progress) throws Exception {
        Map<TablePath, TakeOver> done = new LinkedHashMap<>();
        Set<TablePath> released = new HashSet<>();
        JobHold hold = new JobHold(release, stopped, Clock.systemUTC());
        boolean jobsLetGo = stopped.endedInFlink();
        long waitingSince = System.nanoTime();
        long deadline = waitingSince + timeout.toNanos();
        while (done.size() < plan.lastSnapshots().size()) {
            for (TablePath table : plan.lastSnapshots().keySet()) {
                if (done.containsKey(table)) {
                    continue;
                }
                Optional<TakeOver> takeOver = takeOver(table);
                if (takeOver.isPresent()) {
                    done.put(table, takeOver.get());
                    progress.accept(describe(takeOver.get()));
                }
            }
            List<TablePath> waiting = new ArrayList<>(plan.lastSnapshots().keySet());
            waiting.removeAll(done.keySet());
            if (!jobsLetGo && !waiting.isEmpty()) {
                Optional<String> over = hold.over(tableIds(waiting));
                over.ifPresent(progress);
                over.ifPresent(why -> LOG.info("The stopped tiering jobs hold no table any more: {}", why));
                jobsLetGo = over.isPresent();
            }
            if (jobsLetGo && System.nanoTime() - waitingSince > RELEASE_AFTER.toNanos()) {
                for (TablePath table : waiting) {
                    if (released.add(table)) {
                        release.release(tableId(table));
                        progress.accept(table + ": not committed by lakesync " + RELEASE_AFTER.toSeconds()
                                + " s after the job stopped; handed back to the coordinator (a stopped job may still"
                                + " hold it).");
                    }
                }
            }
            if (!waiting.isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new MigrationUnfinishedException("lakesync has not committed " + waiting + " within "
                            + timeout.toSeconds() + " s (the jobs stay stopped); see 'lakesync status' for why.");
                }
                Thread.sleep(POLL.toMillis());
            }
        }
        return new ArrayList<>(done.values());
    }

    private String describe(TakeOver takeOver) {
        if (takeOver.firstByLakesync() < 0) {
            return takeOver.table() + ": nothing left to tier, the lake holds everything.";
        }
        return takeOver.takeOverMillis() < 0
                ? String.format("%s: lakesync committed lake snapshot %d.", takeOver.table(),
                        takeOver.firstByLakesync())
                : String.format("%s: lakesync committed lake snapshot %d, %.1f s after the job stopped.",
                        takeOver.table(), takeOver.firstByLakesync(), takeOver.takeOverMillis() / 1000.0);
    }

    /**
     * Where each table stands: taken over (lakesync committed it since the jobs were stopped), nothing left to
     * tier, or waiting with its last lake snapshot.
     */
    public Map<TablePath, String> tableStates(Plan plan) throws Exception {
        Map<TablePath, String> states = new LinkedHashMap<>();
        for (TablePath table : plan.lastSnapshots().keySet()) {
            LakeSince lakeSince = lakeSince(table);
            states.put(table, lakeSince.firstByLakesync().isPresent()
                    ? "taken over: lakesync committed lake snapshot " + lakeSince.firstByLakesync().get().id()
                    : verifier.pendingRecords(table) == 0
                            ? "nothing left to tier"
                            : "waiting for lakesync; last lake snapshot "
                                    + (lakeSince.registered() < 0 ? "none" : lakeSince.registered()));
        }
        return states;
    }

    private Optional<TakeOver> takeOver(TablePath table) throws Exception {
        LakeSince lakeSince = lakeSince(table);
        Optional<Snapshot> first = lakeSince.firstByLakesync();
        if (first.isEmpty() && verifier.pendingRecords(table) > 0) {
            return Optional.empty();
        }
        return Optional.of(new TakeOver(table.toString(), lakeSince.lastByFlink(),
                first.map(Snapshot::id).orElse(-1L),
                first.isPresent() && stopped.stopTimeKnown() ? first.get().timeMillis() - since : -1,
                verifier.verify(table)));
    }

    /**
     * A table's tiering snapshots around {@link #since}: the newest committed before it, and the first committed
     * after it that Fluss registered (lakesync's first commit since), and the newest Fluss registered.
     */
    private record LakeSince(long lastByFlink, Optional<Snapshot> firstByLakesync, long registered) {}

    private LakeSince lakeSince(TablePath table) throws Exception {
        long registered = verifier.registeredLakeSnapshot(table);
        List<Snapshot> tiering = tieringSnapshots(table);
        long lastByFlink = tiering.stream().filter(s -> s.timeMillis() <= since).mapToLong(Snapshot::id).max().orElse(-1);
        Optional<Snapshot> firstAfter = tiering.stream().filter(s -> s.timeMillis() > since).findFirst()
                .filter(s -> registered >= s.id());
        return new LakeSince(lastByFlink, firstAfter, registered);
    }

    private List<Long> tableIds(List<TablePath> tables) throws Exception {
        List<Long> ids = new ArrayList<>();
        for (TablePath table : tables) {
            ids.add(tableId(table));
        }
        return ids;
    }

    private long tableId(TablePath table) throws Exception {
        return fluss.tableInfo(table).get().getTableId();
    }

    private List<Snapshot> tieringSnapshots(TablePath table) throws Exception {
        SnapshotManager snapshots = lake.load(table).snapshotManager();
        Long earliest = snapshots.earliestSnapshotId();
        Long latest = snapshots.latestSnapshotId();
        List<Snapshot> tiering = new ArrayList<>();
        for (long id = earliest == null ? 1 : earliest; latest != null && id <= latest; id++) {
            if (snapshots.snapshotExists(id)) {
                Snapshot snapshot = snapshots.snapshot(id);
                if (TieringSnapshot.of(snapshot).isPresent()) {
                    tiering.add(snapshot);
                }
            }
        }
        return tiering;
    }

    @Override
    public void close() throws Exception {
        try (FlussClient flussClient = fluss; LakeTables lakeTables = lake) {
            // Both closed, whichever was opened.
        }
    }

    private void checkServesThisCluster(TieringJob job) throws MigrationRefusedException {
        if (job.bootstrapServers() == null || job.warehouse() == null) {
            if (options.confirmedJobs().contains(job.id())) {
                return;
            }
            throw new MigrationRefusedException("Flink job " + job.id() + " (" + job.name() + ") does not show which "
                    + "Fluss cluster and lake it tiers (no fluss.bootstrap.servers / datalake.<format>.warehouse in "
                    + "its parameters: a session cluster keeps no program arguments, only global job parameters such "
                    + "as -Dpipeline.global-job-parameters). Check it serves " + servedBootstrap() + " and "
                    + servedWarehouse() + ", then pass --confirm-job " + job.id() + ".");
        }
        if (!"paimon".equals(job.lakeFormat())) {
            throw new MigrationRefusedException("Flink job " + job.id() + " tiers into '" + job.lakeFormat()
                    + "'; lakesync tiers into paimon only. Leave that job running.");
        }
        if (!sameAddresses(job.bootstrapServers(), servedBootstrap())) {
            throw new MigrationRefusedException("Flink job " + job.id() + " tiers the Fluss cluster at "
                    + job.bootstrapServers() + ", but this lakesync serves " + servedBootstrap()
                    + " (fluss.bootstrap.servers). Migrate it with the lakesync that serves that cluster.");
        }
        if (!normalizedLocation(job.warehouse()).equals(normalizedLocation(servedWarehouse()))) {
            throw new MigrationRefusedException("Flink job " + job.id() + " tiers into the lake at " + job.warehouse()
                    + ", but this lakesync writes to " + servedWarehouse() + " (datalake.paimon.warehouse).");
        }
    }

    private String servedBootstrap() {
        return served.flussClientOptions().get(ConfigOptions.BOOTSTRAP_SERVERS.key());
    }

    private String servedWarehouse() {
        return served.lakeCatalogOptions().get("warehouse");
    }

    /** Two bootstrap lists name the same cluster when they share an address. */
    static boolean sameAddresses(String a, String b) {
        Set<String> left = addresses(a);
        return addresses(b).stream().anyMatch(left::contains);
    }

    private static Set<String> addresses(String list) {
        return Arrays.stream(list.split(",")).map(s -> s.trim().toLowerCase()).filter(s -> !s.isEmpty())
                .collect(Collectors.toSet());
    }

    /** {@code file:///w/}, {@code file:/w} and {@code /w} alike. */
    static String normalizedLocation(String location) {
        String path = location.trim().replaceFirst("^file:(//)?", "");
        return path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
    }
}
