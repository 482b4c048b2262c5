package io.lakesync.migrate;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.tiering.coordinator.FlussTieringCoordinator;
import io.lakesync.tiering.lake.LakeTables;
import io.lakesync.tiering.lake.TieringSnapshot;
import io.lakesync.verify.TableVerifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
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
 *   plan ──(refused: lakesync off or unhealthy, a job serving another cluster or lake)──> nothing changed
 *    │
 *    ├── --dry-run: print the plan ──> nothing changed
 *    v
 *   stop the running tiering jobs (cancel: their enumerator hands the tables back to the coordinator at once)
 *    │
 *    v
 *   wait until lakesync committed every lake-enabled table once (or it has nothing to tier);
 *   a table lakesync did not commit within RELEASE_AFTER is handed back to the coordinator (TableRelease)
 *    │
 *    v
 *   verify every table, report: last snapshot by Flink, first by lakesync, take-over time
 * </pre>
 *
 * <p>Every step starts from what Flink and the lake show, never from state of its own: a migration interrupted
 * anywhere is completed by running it again. The job's stop time is its end time in Flink's job list, and a
 * tiering snapshot belongs to the Flink job when Paimon committed it before that time.
 */
public final class Migration implements AutoCloseable {

    /** Whether the lakesync service can take over: empty when it is on and healthy, else the reason. */
    @FunctionalInterface
    public interface ServiceCheck {
        Optional<String> refusal() throws Exception;
    }

    /** The jobs found, the ones to stop, and the tables to take over with their last lake snapshot. */
    public record Plan(List<TieringJob> jobs, List<TieringJob> running, Map<TablePath, Long> lastSnapshots) {}

    private static final Logger LOG = LoggerFactory.getLogger(Migration.class);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration CANCEL_TIMEOUT = Duration.ofSeconds(60);
    /** Far above lakesync's round interval for a table with records pending, far below Fluss's 2 minutes. */
    private static final Duration RELEASE_AFTER = Duration.ofSeconds(15);

    private final FlinkRestClient flink;
    private final ServiceCheck service;
    private final LakeSyncConfig served;
    private final Set<String> confirmedJobs;
    /** Opened once the jobs are known to serve this cluster: a refusal needs no connection to it. */
    private Connection connection;
    private LakeTables lake;
    private TableVerifier verifier;

    public Migration(FlinkRestClient flink, ServiceCheck service, LakeSyncConfig served, Set<String> confirmedJobs) {
        this.flink = flink;
        this.service = service;
        this.served = served;
        this.confirmedJobs = confirmedJobs;
    }

    /** Checks lakesync and every running tiering job; refuses when lakesync cannot take over what they serve. */
    public Plan plan() throws Exception {
        Optional<String> refusal = service.refusal();
        if (refusal.isPresent()) {
            throw new MigrationRefusedException("lakesync cannot take over: " + refusal.get());
        }
        List<TieringJob> jobs = TieringJob.list(flink);
        List<TieringJob> running = jobs.stream().filter(TieringJob::running).toList();
        for (TieringJob job : running) {
            checkServesThisCluster(job);
        }
        connection = ConnectionFactory.createConnection(served.flussClientConfiguration());
        lake = new LakeTables(served.lakeCatalogOptions());
        verifier = new TableVerifier(connection, lake);
        Map<TablePath, Long> lastSnapshots = new LinkedHashMap<>();
        for (TablePath table : verifier.lakeEnabledTables()) {
            lastSnapshots.put(table, verifier.registeredLakeSnapshot(table));
        }
        return new Plan(jobs, running, lastSnapshots);
    }

    /** Cancels the running jobs and waits until Flink reports each ended. */
    public void stopJobs(Plan plan, Consumer<String> progress) throws Exception {
        for (TieringJob job : plan.running()) {
            flink.cancel(job.id());
            LOG.info("Cancelling Flink tiering job {} ({})", job.id(), job.name());
            progress.accept("Cancelling Flink job " + job.id() + " (" + job.name() + ")...");
        }
        long deadline = System.nanoTime() + CANCEL_TIMEOUT.toNanos();
        for (TieringJob job : plan.running()) {
            String state;
            while (!Set.of("CANCELED", "FAILED", "FINISHED").contains(state = flink.job(job.id()).path("state").asText())) {
                if (System.nanoTime() > deadline) {
                    throw new MigrationRefusedException("Flink job " + job.id() + " is still " + state + " "
                            + CANCEL_TIMEOUT.toSeconds() + " s after it was cancelled; run the migration again once "
                            + "Flink shows it ended.");
                }
                Thread.sleep(POLL.toMillis());
            }
            LOG.info("Flink tiering job {} is {}", job.id(), state);
            progress.accept("Flink job " + job.id() + " is " + state + ".");
        }
    }

    /**
     * Waits until lakesync committed each table once after the jobs stopped (or the table has nothing left to
     * tier), then verifies it.
     */
    public List<TakeOver> awaitTakeOver(Plan plan, Duration timeout, Consumer<String> progress) throws Exception {
        long stoppedAt = stoppedAt();
        Map<TablePath, TakeOver> done = new LinkedHashMap<>();
        Set<TablePath> released = new HashSet<>();
        long waitingSince = System.nanoTime();
        long deadline = waitingSince + timeout.toNanos();
        while (done.size() < plan.lastSnapshots().size()) {
            for (TablePath table : plan.lastSnapshots().keySet()) {
                if (done.containsKey(table)) {
                    continue;
                }
                Optional<TakeOver> takeOver = takeOver(table, stoppedAt);
                if (takeOver.isPresent()) {
                    done.put(table, takeOver.get());
                    progress.accept(takeOver.get().firstByLakesync() < 0
                            ? table + ": nothing left to tier, the lake holds everything."
                            : String.format("%s: lakesync committed lake snapshot %d, %.1f s after the job stopped.",
                                    table, takeOver.get().firstByLakesync(), takeOver.get().takeOverMillis() / 1000.0));
                }
            }
            if (System.nanoTime() - waitingSince > RELEASE_AFTER.toNanos()) {
                for (TablePath table : plan.lastSnapshots().keySet()) {
                    if (!done.containsKey(table) && released.add(table)) {
                        new TableRelease(FlussTieringCoordinator.of(connection))
                                .release(connection.getAdmin().getTableInfo(table).get().getTableId());
                        progress.accept(table + ": not committed by lakesync " + RELEASE_AFTER.toSeconds()
                                + " s after the job stopped; handed back to the coordinator (a stopped job may still"
                                + " hold it).");
                    }
                }
            }
            if (done.size() < plan.lastSnapshots().size()) {
                if (System.nanoTime() > deadline) {
                    List<TablePath> waiting = new ArrayList<>(plan.lastSnapshots().keySet());
                    waiting.removeAll(done.keySet());
                    throw new MigrationRefusedException("lakesync has not committed " + waiting + " within "
                            + timeout.toSeconds() + " s; see 'lakesync status' for why, then run the migration "
                            + "again (the jobs stay stopped).");
                }
                Thread.sleep(POLL.toMillis());
            }
        }
        return new ArrayList<>(done.values());
    }

    private Optional<TakeOver> takeOver(TablePath table, long stoppedAt) throws Exception {
        long registered = verifier.registeredLakeSnapshot(table);
        List<Snapshot> tiering = tieringSnapshots(table);
        long lastByFlink = tiering.stream().filter(s -> s.timeMillis() <= stoppedAt).mapToLong(Snapshot::id).max().orElse(-1);
        Optional<Snapshot> firstByLakesync = tiering.stream().filter(s -> s.timeMillis() > stoppedAt).findFirst();
        boolean committed = firstByLakesync.isPresent() && registered >= firstByLakesync.get().id();
        if (!committed && verifier.pendingRecords(table) > 0) {
            return Optional.empty();
        }
        return Optional.of(new TakeOver(table.toString(), lastByFlink,
                committed ? firstByLakesync.get().id() : -1,
                committed ? firstByLakesync.get().timeMillis() - stoppedAt : -1,
                verifier.verify(table)));
    }

    /** When the last tiering job on the Flink cluster ended; now if none ever ran there. */
    private long stoppedAt() throws Exception {
        return TieringJob.list(flink).stream()
                .filter(job -> !job.running())
                .mapToLong(TieringJob::endTime)
                .max()
                .orElse(System.currentTimeMillis());
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
        try (Connection flussConnection = connection; LakeTables lakeTables = lake) {
            // Both closed, whichever was opened.
        }
    }

    private void checkServesThisCluster(TieringJob job) throws MigrationRefusedException {
        if (job.bootstrapServers() == null || job.warehouse() == null) {
            if (confirmedJobs.contains(job.id())) {
                return;
            }
            throw new MigrationRefusedException("Flink job " + job.id() + " (" + job.name() + ") does not show which "
                    + "Fluss cluster and lake it tiers (no fluss.bootstrap.servers / datalake.<format>.warehouse in "
                    + "its parameters). Check it serves " + servedBootstrap() + " and " + servedWarehouse()
                    + ", then pass --confirm-job " + job.id() + ".");
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
