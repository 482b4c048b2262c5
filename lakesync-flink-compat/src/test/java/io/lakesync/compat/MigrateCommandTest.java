package io.lakesync.compat;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.cli.LakeSyncCli;
import io.lakesync.local.LocalFlussCluster;
import io.lakesync.server.LakeSyncServer;
import io.lakesync.tiering.TieringTestBase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.functions.source.SourceFunction;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.metadata.PartitionSpec;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code lakesync migrate} against Fluss's real Flink tiering job on Flink 1.20 clusters with their REST
 * endpoint, a log, a primary-key and a partitioned table under continuous writes, the lake checked row by row:
 * <ul>
 *   <li>a session cluster (the job ends, the endpoint stays): refused for another cluster, a dry run changes
 *       nothing, the migration stops the job and lakesync takes every table over, and a migration interrupted
 *       after its job stopped completes when run again;
 *   <li>a job cluster (application mode: the cluster shuts down with its job): recognised from the entry point's
 *       program arguments, migrated, and finished with --flink-gone once the cluster is gone;
 *   <li>a job stuck in CANCELLING: reported with each table's state and the command that finishes.
 * </ul>
 */
class MigrateCommandTest extends TieringTestBase {

    private static final Logger LOG = LoggerFactory.getLogger(MigrateCommandTest.class);
    private static final String OWNER = "owner-token-0123456789";
    private static final TablePath CLICKS = TablePath.of("fluss", "migrate_clicks");
    private static final TablePath ORDERS = TablePath.of("fluss", "migrate_orders");
    private static final TablePath EVENTS = TablePath.of("fluss", "migrate_events");
    private static final List<String> DAYS = List.of("2026-11-30", "2026-12-01");

    private static MiniCluster flink;
    private static URI flinkUrl;

    private record Run(int exitCode, String out, String err) {}

    @BeforeAll
    static void startFlinkAndTables() throws Exception {
        flink = FlinkPeer.startRestCluster();
        flinkUrl = flink.getRestAddress().get();
        createTable(CLICKS, idTable(3, "1s"));
        createTable(ORDERS, lakeTable(Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("status", DataTypes.STRING())
                .primaryKey("id")
                .build(), 2, "1s").build());
        createTable(EVENTS, lakeTable(Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("day", DataTypes.STRING())
                .build(), 2, "1s").partitionedBy("day").build());
        for (String day : DAYS) {
            createServedPartition(day);
        }
    }

    /**
     * Creates a partition of {@link #EVENTS} and waits until its buckets have leaders. Fluss 0.9.1 now and then
     * never elects them (writers then retry without end); such a partition is dropped and created once more.
     */
    private static void createServedPartition(String day) throws Exception {
        PartitionSpec partition = new PartitionSpec(Map.of("day", day));
        for (int attempt = 1; ; attempt++) {
            admin.createPartition(EVENTS, partition, false).get();
            try {
                eventually(Duration.ofSeconds(20), () -> {
                    try (Connection fresh = ConnectionFactory.createConnection(cluster.clientConfiguration())) {
                        fresh.getAdmin().listOffsets(EVENTS, day, List.of(0, 1), new OffsetSpec.LatestSpec())
                                .all().get(5, TimeUnit.SECONDS);
                    }
                });
                return;
            } catch (Exception | AssertionError notServed) {
                if (attempt == 2) {
                    throw new AssertionError("Fluss never served partition " + day + " of " + EVENTS, notServed);
                }
                admin.dropPartition(EVENTS, partition, false).get();
            }
        }
    }

    @AfterAll
    static void stopFlink() throws Exception {
        flink.close();
    }

    @Test
    void migrationStopsTheJobAndLakesyncTakesEveryTableOverExactlyOnce() throws Exception {
        Writer writer = new Writer();
        writer.start();
        try {
            JobClient job = FlinkPeer.submitFlussTieringJob(flinkUrl, cluster);
            for (TablePath table : List.of(CLICKS, ORDERS, EVENTS)) {
                eventually(SYNC_TIMEOUT, () -> assertThat(fluss.latestLakeSnapshot(table).get()).isNotNull());
            }
            try (LakeSyncServer server = startLakesync("migrate-instance")) {
                Run otherCluster = migrate(server, "--set", "fluss.bootstrap.servers=127.0.0.1:1");
                assertThat(otherCluster.exitCode()).isEqualTo(1);
                assertThat(otherCluster.err()).contains("Flink job " + job.getJobID() + " tiers the Fluss cluster at "
                        + cluster.bootstrapServers() + ", but this lakesync serves 127.0.0.1:1");

                Run dryRun = migrate(server, "--dry-run");
                assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
                assertThat(dryRun.out())
                        .contains(job.getJobID().toString(), "RUNNING", CLICKS.toString(), ORDERS.toString(),
                                EVENTS.toString())
                        .contains("Dry run: would stop 1 Flink job(s) and let lakesync take over 3 table(s). "
                                + "Nothing was changed.");
                assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);

                Run migration = migrate(server);
                LOG.info("lakesync migrate:\n{}", migration.out());
                assertThat(migration.exitCode()).as(migration.out() + migration.err()).isZero();
                assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.CANCELED);
                assertThat(runningTieringJobs()).isZero();
                assertTakenOver(migration);
            }

            // A migration that stopped its job and then died, lakesync down meanwhile: the job held the tables when
            // it stopped, and running the migration again completes the take-over.
            Map<TablePath, Long> beforeSecondJob = latestLakeSnapshots();
            JobClient second = FlinkPeer.submitFlussTieringJob(flinkUrl, cluster);
            awaitTieredPast(beforeSecondJob);
            second.cancel().get();
            eventually(SYNC_TIMEOUT, () -> assertThat(second.getJobStatus().get()).isEqualTo(JobStatus.CANCELED));
            try (LakeSyncServer server = startLakesync("migrate-instance-again")) {
                Run rerun = migrate(server);
                LOG.info("lakesync migrate, run again:\n{}", rerun.out());
                assertThat(rerun.exitCode()).as(rerun.out() + rerun.err()).isZero();
                assertTakenOver(rerun);

                writer.stopAndJoin();
                assertLakeHoldsEveryRowOnce();
            }
        } finally {
            writer.stopAndJoin();
        }
    }

    /**
     * The job on a cluster of its own, launched as Fluss's entry point launches it in application mode: recognised
     * from its program arguments, cancelled, and its cluster shuts down with it, REST endpoint included. The
     * migration completes all the same, and run again once the cluster is gone it finishes with --flink-gone.
     */
    @Test
    void aJobClusterThatShutsDownWithItsJobIsMigratedAndARunAfterItIsGoneCompletes() throws Exception {
        Map<TablePath, Long> before = latestLakeSnapshots();
        Writer writer = new Writer();
        writer.start();
        try (FlinkPeer.JobCluster jobCluster = FlinkPeer.startApplicationCluster(cluster);
                LakeSyncServer server = startLakesync("migrate-job-cluster")) {
            awaitTieredPast(before);
            Run migration = migrate(server, jobCluster.url());
            LOG.info("lakesync migrate, job cluster:\n{}", migration.out());
            assertThat(migration.exitCode()).as(migration.out() + migration.err()).isZero();
            assertThat(migration.out()).contains("Cancelling Flink job " + jobCluster.job().getJobID());
            assertTakenOver(migration);
            assertThat(jobCluster.flink().isRunning()).as("the job cluster shut down with its job").isFalse();

            Run again = migrate(server, jobCluster.url());
            assertThat(again.exitCode()).isEqualTo(1);
            assertThat(again.err().lines()).singleElement().asString()
                    .startsWith("lakesync: No Flink REST endpoint answers at " + jobCluster.url())
                    .endsWith("run again with --flink-gone to finish the take-over.");

            Run gone = migrate(server, jobCluster.url(), "--flink-gone");
            LOG.info("lakesync migrate --flink-gone:\n{}", gone.out());
            assertThat(gone.exitCode()).as(gone.out() + gone.err()).isZero();
            assertThat(gone.out()).contains("does not answer (--flink-gone): finishing the take-over");
            assertTakenOver(gone);
            writer.stopAndJoin();
            assertLakeHoldsEveryRowOnce();
        } finally {
            writer.stopAndJoin();
        }
    }

    /**
     * A job whose task ignores the cancel stays CANCELLING: the migration waits --cancel-timeout, then says so,
     * shows where each table stands and the command that finishes it; no stack trace. The job is Flink's real
     * CANCELLING, made by a source that does not stop until the test lets it.
     */
    @Test
    void aJobStuckInCancellingIsReportedWithEachTablesStateAndTheCommandToFinish() throws Exception {
        JobClient stuck = StuckJob.submit(flinkUrl, cluster);
        try (LakeSyncServer server = startLakesync("migrate-stuck")) {
            eventually(SYNC_TIMEOUT, () -> assertThat(stuck.getJobStatus().get()).isEqualTo(JobStatus.RUNNING));
            Run run = migrate(server, flinkUrl, "--cancel-timeout", "3");
            LOG.info("lakesync migrate, stuck job:\n{}{}", run.out(), run.err());
            assertThat(run.exitCode()).isEqualTo(1);
            assertThat(run.err().lines()).singleElement().asString()
                    .startsWith("lakesync: Flink job " + stuck.getJobID() + " is still CANCELLING 3 s after it was "
                            + "cancelled")
                    .endsWith("Make Flink end it (restart the TaskManager that runs the stuck task). Then finish "
                            + "with: lakesync migrate --flink-url " + flinkUrl + " (and this run's other options).");
            for (TablePath table : List.of(CLICKS, ORDERS, EVENTS)) {
                assertThat(run.out().lines().filter(l -> l.matches(table + " +(taken over: lakesync committed lake "
                        + "snapshot \\d+|nothing left to tier|waiting for lakesync; last lake snapshot \\w+)")))
                        .as("the state of %s in%n%s", table, run.out())
                        .hasSize(1);
            }
        } finally {
            StuckJob.RELEASE.countDown();
            eventually(SYNC_TIMEOUT, () -> assertThat(stuck.getJobStatus().get().isGloballyTerminalState()).isTrue());
        }
    }

    /** Each table's latest lake snapshot, -1 for a table not tiered yet. */
    private static Map<TablePath, Long> latestLakeSnapshots() throws Exception {
        Map<TablePath, Long> latest = new HashMap<>();
        for (TablePath table : List.of(CLICKS, ORDERS, EVENTS)) {
            try {
                latest.put(table, fluss.latestLakeSnapshot(table).get().getSnapshotId());
            } catch (ExecutionException notTieredYet) {
                latest.put(table, -1L);
            }
        }
        return latest;
    }

    private static void awaitTieredPast(Map<TablePath, Long> snapshots) throws Exception {
        for (Map.Entry<TablePath, Long> table : snapshots.entrySet()) {
            eventually(SYNC_TIMEOUT, () -> assertThat(fluss.latestLakeSnapshot(table.getKey()).get()
                    .getSnapshotId()).isGreaterThan(table.getValue()));
        }
    }

    /** Waits until lakesync tiered everything written, then reads the lake row by row. */
    private static void assertLakeHoldsEveryRowOnce() throws Exception {
        for (TablePath table : List.of(CLICKS, ORDERS, EVENTS)) {
            awaitTiered(table);
        }
        assertExactlyOnce(readLake(CLICKS, "id"), clicks);
        assertExactlyOnce(readLake(EVENTS, "id"), events);
        Map<Long, String> lakeOrders = new HashMap<>();
        readLake(ORDERS, "id", "status").forEach(row -> lakeOrders.put((Long) row.get(0), (String) row.get(1)));
        assertThat(lakeOrders).isEqualTo(orders);
    }

    private static LakeSyncServer startLakesync(String instance) throws Exception {
        return LakeSyncServer.start(serviceConfig(instance, Map.of(
                "service.port", "0",
                "status.refresh-interval", "500ms",
                "auth.tokens", "ops:owner:" + OWNER)));
    }

    private static void assertTakenOver(Run run) {
        assertThat(run.out()).contains("Migration complete: lakesync tiers every table.");
        for (TablePath table : List.of(CLICKS, ORDERS, EVENTS)) {
            assertThat(run.out().lines().filter(l -> l.startsWith(table + " ") && l.endsWith("OK")))
                    .as("report line of %s in%n%s", table, run.out())
                    .hasSize(1);
        }
    }

    private static void assertExactlyOnce(List<List<Object>> lakeRows, long written) {
        assertThat(lakeRows).hasSize(Math.toIntExact(written));
        assertThat(lakeRows.stream().map(r -> r.get(0)).distinct().count()).isEqualTo(written);
    }

    private static long runningTieringJobs() throws Exception {
        String body = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(flinkUrl.resolve("/jobs/overview")).build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        return body.split("\"state\":\"RUNNING\"", -1).length - 1;
    }

    private static Run migrate(LakeSyncServer server, String... extra) {
        return migrate(server, flinkUrl, extra);
    }

    private static Run migrate(LakeSyncServer server, URI flinkUrl, String... extra) {
        List<String> args = new ArrayList<>(List.of("migrate", "--flink-url", flinkUrl.toString(),
                "--url", server.url().toString(), "--token", OWNER, "--timeout", "60",
                "--set", "fluss.bootstrap.servers=" + cluster.bootstrapServers()));
        cluster.lakeCatalogOptions().forEach((k, v) -> args.addAll(List.of("--set", "datalake.paimon." + k + "=" + v)));
        args.addAll(List.of(extra));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = LakeSyncCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    /**
     * A job lakesync takes for Fluss's tiering job (its default name, parameters naming this cluster and lake)
     * whose source ignores the cancel and Flink's interrupts until {@link #RELEASE}: Flink keeps it CANCELLING.
     */
    private static final class StuckJob implements SourceFunction<Long> {
        static final CountDownLatch RELEASE = new CountDownLatch(1);

        static JobClient submit(URI flinkUrl, LocalFlussCluster cluster) throws Exception {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createRemoteEnvironment(
                    flinkUrl.getHost(), flinkUrl.getPort(), FlinkPeer.flinkRunConfig(cluster));
            env.addSource(new StuckJob()).returns(Types.LONG).setParallelism(1).sinkTo(new DiscardingSink<>());
            return env.executeAsync("Fluss Lake Tiering Service - paimon");
        }

        @Override
        public void run(SourceContext<Long> context) {
            while (true) {
                try {
                    RELEASE.await();
                    return;
                } catch (InterruptedException ignored) {
                    // What makes it stuck: Flink's cancel interrupts the task thread, and it carries on.
                }
            }
        }

        @Override
        public void cancel() {}
    }

    /** What the three tables must hold, over every test's writes. */
    private static final Map<Long, String> orders = new HashMap<>();
    private static long clicks;
    private static long events;

    /** Writes to the three tables every 50 ms until stopped, keeping what each must hold in the end. */
    private static final class Writer extends Thread {
        final AtomicBoolean running = new AtomicBoolean(true);
        volatile Exception failure;

        Writer() {
            super("migrate-test-writer");
        }

        @Override
        public void run() {
            Random random = new Random(11);
            try {
                for (int round = 0; running.get(); round++) {
                    append(CLICKS, ids(clicks, clicks + 50));
                    clicks += 50;
                    List<InternalRow> dayRows = new ArrayList<>();
                    for (int i = 0; i < 50; i++, events++) {
                        dayRows.add(GenericRow.of(events, BinaryString.fromString(DAYS.get((int) (events % 2)))));
                    }
                    append(EVENTS, dayRows);
                    List<InternalRow> upserts = new ArrayList<>();
                    for (int i = 0; i < 20; i++) {
                        long id = random.nextInt(300);
                        String status = "r" + round + "-" + i;
                        upserts.add(GenericRow.of(id, BinaryString.fromString(status)));
                        orders.put(id, status);
                    }
                    upsert(ORDERS, upserts, false);
                    if (round % 5 == 4) {
                        List<InternalRow> deletes = new ArrayList<>();
                        orders.keySet().stream().limit(5).toList().forEach(id -> {
                            deletes.add(GenericRow.of(id, BinaryString.fromString(orders.remove(id))));
                        });
                        upsert(ORDERS, deletes, true);
                    }
                    Thread.sleep(50);
                }
            } catch (Exception e) {
                failure = e;
            }
        }

        void stopAndJoin() throws InterruptedException {
            running.set(false);
            join();
            assertThat(failure).as("the writer's failure").isNull();
        }
    }
}
