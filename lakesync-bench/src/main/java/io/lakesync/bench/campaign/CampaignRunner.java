package io.lakesync.bench.campaign;

import io.lakesync.bench.cluster.BenchCluster;
import io.lakesync.bench.cluster.DataFolder;
import io.lakesync.bench.cluster.FlussNodes;
import io.lakesync.bench.cluster.LakeTables;
import io.lakesync.bench.soak.LakeCoverage;
import io.lakesync.bench.soak.LakeVerifier;
import io.lakesync.bench.soak.SoakData;
import io.lakesync.bench.soak.SoakTables;
import io.lakesync.bench.soak.SoakWriter;
import io.lakesync.bench.soak.TableCheck;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.local.LocalPostgres;
import io.lakesync.local.S3Server;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.fluss.metadata.TableBucket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a campaign: an embedded Fluss cluster in this JVM whose lake lives on the local S3 server with its
 * catalog in a real PostgreSQL, which also holds the shared state of {@code --instances} lakesync instances (each
 * its own JVM) that reach Fluss through proxies; the soak's writer writes all the time, and a loop injects one
 * fault after another:
 *
 * <pre>
 *   ┌─► Fluss end offsets now ──► inject ──► hold ──► heal ──► lake covers those offsets? (caught up: one sample)
 *   │                                                                  │
 *   └──── next fault ◄── restart any instance that stopped by itself ◄─┘        × faults
 *
 *   all along: every instance's status API polled for tables shown UP_TO_DATE that are not (status lies)
 *   then: writer stops ──► lake covers everything ──► instances stop ──► lake read back row by row
 * </pre>
 */
final class CampaignRunner {

    private static final Logger LOG = LoggerFactory.getLogger(CampaignRunner.class);

    private static final Duration KV_SNAPSHOT_INTERVAL = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(100);
    /** How often the instances refresh their status. */
    private static final Duration STATUS_REFRESH = Duration.ofSeconds(1);
    private static final Duration HEARTBEAT = Duration.ofSeconds(1);
    private static final Duration INSTANCE_TIMEOUT = Duration.ofSeconds(3);
    private static final String BUCKET = "lake";
    private static final String BETWEEN_FAULTS = "between faults";
    /** The local stack's option for several tablet servers (a stack without it names the key in its error). */
    private static final String TABLET_SERVERS_KEY = "local.tablet-servers";

    private final CampaignSettings settings;
    private final Consumer<String> progress;
    private final SoakTables tables = SoakTables.standard();
    /** The writer of the running campaign, for the faults that must hold it back. */
    private volatile SoakWriter writer;

    CampaignRunner(CampaignSettings settings, Consumer<String> progress) {
        this.settings = settings;
        this.progress = progress;
    }

    CampaignResult run() throws Exception {
        return DataFolder.run(settings.dataDir(), settings.keepData(), "lakesync-campaign-", progress, this::runIn);
    }

    private CampaignResult runIn(Path folder) throws Exception {
        Instant startedAt = Instant.now();
        long startNanos = System.nanoTime();
        String password = randomHex(16);
        progress.accept("Starting PostgreSQL, the S3 server and the embedded Fluss cluster in " + folder);
        try (LocalPostgres postgres = LocalPostgres.start(password);
                S3Server s3 = startS3(folder);
                FlussProxies network = new FlussProxies();
                BenchCluster cluster = BenchCluster.start(folder.resolve("cluster"), KV_SNAPSHOT_INTERVAL,
                        clusterSettings(postgres, s3), network)) {
            tables.create(cluster, settings.buckets(), settings.freshness());
            String token = randomHex(24);
            Map<String, String> shared = instanceSettings(cluster, network, postgres, token);
            try (ServiceInstances instances = new ServiceInstances(settings.instances(), shared, folder, settings.heap())) {
                List<String> skipped = new ArrayList<>();
                List<Fault> faults = faults(instances, postgres, s3, network, cluster.nodes(), skipped);
                progress.accept("Instance logs (all restarts): " + folder.resolve("instance-<i>.log") + "; faults: "
                        + faults.stream().map(Fault::name).toList());
                instances.startAll();
                return campaign(cluster, instances, faults, token, startedAt, startNanos, skipped);
            }
        }
    }

    private CampaignResult campaign(BenchCluster cluster, ServiceInstances instances, List<Fault> faults, String token,
            Instant startedAt, long startNanos, List<String> skipped) throws Exception {
        List<KindStats> kinds = faults.stream().map(f -> new KindStats(f.name(), f.description())).toList();
        KindStats between = new KindStats(BETWEEN_FAULTS, "");
        RowWindows windows = new RowWindows();
        LakeCoverage coverage = new LakeCoverage(cluster, tables.all());
        SoakData data = new SoakData(settings.seed());
        FaultPlan plan = new FaultPlan(settings.seed(), faults.size(), settings.minHold(), settings.maxHold());
        Duration finalCatchUp;
        List<TableCheck> checks;
        String endedEarly = null;
        try (SoakWriter writer = new SoakWriter(
                        cluster.connection(), tables, data, settings.rowsPerSecond(), settings.partitionEvery());
                StatusWatch watch = new StatusWatch(instances, new LakeCoverage(cluster, tables.all()), token,
                        settings.freshness(), progress)) {
            this.writer = writer;
            writer.start();
            watch.start();
            awaitFirstRows(coverage, () -> between.exits += supervise(instances, writer));
            for (int n = 1; n <= settings.faults(); n++) {
                FaultPlan.Next next = plan.next();
                Fault fault = faults.get(next.kind());
                KindStats stats = kinds.get(next.kind());
                Map<TableBucket, Long> before = coverage.endOffsets();
                long fromId = data.logRows();
                watch.phase(fault.name());
                LOG.info("Fault {}/{}: injecting {}", n, settings.faults(), fault.name());
                String done = fault.inject(plan.random());
                Thread.sleep(next.hold().toMillis());
                fault.heal();
                long healedNanos = System.nanoTime();
                int[] exits = {0};
                Optional<Duration> caughtUp = awaitCoverage(coverage, before, healedNanos, settings.catchUpTimeout(),
                        () -> exits[0] += supervise(instances, writer));
                boolean repaired = true;
                if (caughtUp.isEmpty()) {
                    stats.stalls++;
                    repaired = repair(instances, writer, coverage, before, exits);
                }
                windows.add(fromId, data.logRows(), stats);
                watch.phase(BETWEEN_FAULTS);
                stats.injected++;
                stats.exits += exits[0];
                caughtUp.ifPresent(d -> stats.catchUpMillis.add(d.toMillis()));
                if (caughtUp.isPresent() && exits[0] == 0) {
                    stats.survived++;
                }
                progress.accept(String.format("fault %d/%d %s, held %.1f s: %s; %s%s", n, settings.faults(), fault.name(),
                        next.hold().toMillis() / 1000.0, done,
                        caughtUp.map(d -> String.format("caught up %.1f s after heal", d.toMillis() / 1000.0))
                                .orElse("NOT caught up within " + settings.catchUpTimeout()),
                        exits[0] == 0 ? "" : "; " + exits[0] + " running instance(s) stopped by themselves"));
                if (!repaired) {
                    endedEarly = "after fault " + n + " (" + fault.name() + "), the lake did not catch up even after "
                            + "every instance restarted";
                    progress.accept("Ending the campaign early: " + endedEarly);
                    break;
                }
            }
            progress.accept("Stopping the writer; waiting until the lake holds everything written");
            writer.stop();
            finalCatchUp = awaitCoverage(coverage, coverage.endOffsets(), System.nanoTime(), settings.finalTimeout(),
                    () -> between.exits += supervise(instances, writer)).orElse(null);
            watch.close();
            watch.lies().forEach((phase, lies) -> kinds.stream()
                    .filter(k -> k.name.equals(phase))
                    .findFirst()
                    .orElse(between)
                    .statusLies += lies);
            instances.stopAll();
            progress.accept("Reading the lake back row by row");
            // A catalog of its own: a Paimon JDBC catalog does not renew its connections after PostgreSQL restarts.
            try (LakeTables lake = new LakeTables(cluster.lakeCatalogOptions())) {
                checks = new LakeVerifier(lake, tables, progress).verify(data, (table, id, problem) -> {
                    KindStats kind = windows.kindOf(id).orElse(between);
                    switch (problem) {
                        case LOST -> kind.lost++;
                        case DUPLICATED -> kind.duplicated++;
                        case MISMATCHED -> kind.mismatched++;
                    }
                });
            }
        }
        // Both log tables hold one row of each id: the rows checked while a kind's faults lasted.
        for (long id = 0; id < data.logRows(); id++) {
            windows.kindOf(id).ifPresent(kind -> kind.rowsChecked += 2);
        }
        return new CampaignResult(settings, startedAt, Duration.ofNanos(System.nanoTime() - startNanos), kinds, between,
                skipped, endedEarly, finalCatchUp, checks);
    }

    /** The kinds to inject: those asked for (all by default) that this cluster can do; the others in {@code skipped}. */
    private List<Fault> faults(ServiceInstances instances, LocalPostgres postgres, S3Server s3, FlussProxies network,
            FlussNodes nodes, List<String> skipped) {
        List<Fault> all = new ArrayList<>(List.of(
                new KillFault(instances),
                new StateFreezeFault(postgres),
                new StateRestartFault(postgres),
                new LakeErrorsFault(s3.faults()),
                new LakeSlowFault(s3.faults()),
                new NetworkDelayFault(network),
                new NetworkCutFault(network),
                new ClockSkewFault(instances),
                new CoordinatorRestartFault(nodes, () -> writer)));
        if (nodes.tabletServerCount() > 1) {
            all.add(new TabletServerFault(nodes));
        } else {
            skipped.add("tablet-server (needs a local stack of two or more tablet servers: --tablet-servers 3)");
        }
        if (settings.kinds().isEmpty()) {
            return all;
        }
        List<Fault> chosen = new ArrayList<>();
        for (String name : settings.kinds()) {
            Fault fault = all.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow(() ->
                    new IllegalArgumentException("--kinds names '" + name + "', which this campaign cannot inject; "
                            + "it can: " + all.stream().map(Fault::name).toList() + "."));
            chosen.add(fault);
        }
        skipped.clear();
        return chosen;
    }

    /**
     * After a fault the lake did not catch up from: restarts every instance, as an operator would, so that the
     * campaign goes on; returns whether the lake caught up within the final timeout (the first rounds of fresh
     * instances are slow) once they all served again.
     */
    private boolean repair(ServiceInstances instances, SoakWriter writer, LakeCoverage coverage,
            Map<TableBucket, Long> before, int[] exits) throws Exception {
        progress.accept("The lake did not catch up within " + settings.catchUpTimeout() + "; restarting every instance");
        instances.restartAll();
        return awaitCoverage(coverage, before, System.nanoTime(), settings.finalTimeout(),
                () -> exits[0] += supervise(instances, writer)).isPresent();
    }

    /** What a wait does on each poll. */
    @FunctionalInterface
    private interface Poll {
        void run() throws Exception;
    }

    /**
     * Fails the campaign if the writer failed, and restarts, as a supervisor would, every instance that stopped by
     * itself (not by a fault); returns how many of them had served. One that failed to start (its state database or
     * lake down at start-up, say) is not counted: refusing to start on a broken dependency is what a service under
     * a supervisor should do.
     */
    private int supervise(ServiceInstances instances, SoakWriter writer) throws Exception {
        if (writer.failure() != null) {
            throw new IllegalStateException("The campaign writer failed", writer.failure());
        }
        int stopped = 0;
        for (int i = 0; i < instances.count(); i++) {
            Optional<String> exit = instances.exited(i);
            if (exit.isPresent()) {
                boolean served = instances.served(i);
                stopped += served ? 1 : 0;
                progress.accept("instance " + i + (served ? " stopped by itself: " : " failed to start: ") + exit.get()
                        + "; restarted");
                instances.relaunch(i);
            }
        }
        return stopped;
    }

    private static S3Server startS3(Path folder) throws Exception {
        S3Server s3 = S3Server.start(folder.resolve("s3"), 0);
        s3.createBucket(BUCKET);
        return s3;
    }

    /** The local stack on fixed ports (advertised beside the proxies), its lake on S3 with a JDBC catalog. */
    private Map<String, String> clusterSettings(LocalPostgres postgres, S3Server s3) throws Exception {
        Map<String, String> config = new LinkedHashMap<>();
        config.put(LakeSyncOptions.LOCAL_COORDINATOR_PORT.key(), Integer.toString(FlussProxies.freePort()));
        config.put(LakeSyncOptions.LOCAL_TABLET_SERVER_PORT.key(), Integer.toString(FlussProxies.freePort()));
        if (settings.tabletServers() > 1) {
            config.put(TABLET_SERVERS_KEY, Integer.toString(settings.tabletServers()));
        }
        Map<String, String> lake = new LinkedHashMap<>(s3.catalogOptions(BUCKET, "warehouse"));
        // Several instances commit to one object-store lake: only a catalog that locks across them may.
        lake.put("metastore", "jdbc");
        lake.put("uri", postgres.createDatabase("paimon"));
        lake.put("jdbc.user", LocalPostgres.SUPERUSER);
        lake.put("jdbc.password", postgres.password());
        lake.put("lock.enabled", "true");
        lake.forEach((k, v) -> config.put(LakeSyncOptions.LAKE_PREFIX + k, v));
        return config;
    }

    /** What every instance shares: Fluss through the proxies, the lake, the state, a viewer token, short intervals. */
    private Map<String, String> instanceSettings(BenchCluster cluster, FlussProxies network, LocalPostgres postgres,
            String token) throws Exception {
        Map<String, String> shared = new LinkedHashMap<>();
        shared.put(LakeSyncOptions.FLUSS_PREFIX + "bootstrap.servers", network.bootstrapServers());
        cluster.lakeCatalogOptions().forEach((k, v) -> shared.put(LakeSyncOptions.LAKE_PREFIX + k, v));
        shared.put(LakeSyncOptions.STATE_JDBC_URL.key(), postgres.createDatabase("lakesync"));
        shared.put(LakeSyncOptions.STATE_JDBC_USER.key(), LocalPostgres.SUPERUSER);
        shared.put(LakeSyncOptions.STATE_JDBC_PASSWORD.key(), postgres.password());
        shared.put(LakeSyncOptions.AUTH_TOKENS.key(), "campaign:viewer:" + token);
        shared.put(LakeSyncOptions.SERVICE_HOST.key(), "127.0.0.1");
        shared.put(LakeSyncOptions.STATUS_REFRESH_INTERVAL.key(), STATUS_REFRESH.toMillis() + " ms");
        shared.put(LakeSyncOptions.CLUSTER_HEARTBEAT_INTERVAL.key(), HEARTBEAT.toMillis() + " ms");
        shared.put(LakeSyncOptions.CLUSTER_INSTANCE_TIMEOUT.key(), INSTANCE_TIMEOUT.toMillis() + " ms");
        // The write-path warm-up takes half a minute of a start on a small machine; restarts here must be quick.
        shared.put(LakeSyncOptions.TIERING_WARM_UP.key(), "false");
        return shared;
    }

    /**
     * Waits until every table holds rows and the lake has them too, within the final timeout (the first rounds
     * of fresh instances are slow): faults strike a service at work.
     */
    private void awaitFirstRows(LakeCoverage coverage, Poll duringWait) throws Exception {
        Map<TableBucket, Long> ends;
        long since = System.nanoTime();
        while ((ends = coverage.endOffsets()).keySet().stream().map(TableBucket::getTableId).distinct().count() < tables.all().size()) {
            if (Duration.ofNanos(System.nanoTime() - since).compareTo(settings.finalTimeout()) > 0) {
                throw new IllegalStateException("Fluss holds no rows of some table after " + settings.finalTimeout());
            }
            Thread.sleep(POLL.toMillis());
        }
        Optional<Duration> first = awaitCoverage(coverage, ends, since, settings.finalTimeout(), duringWait);
        progress.accept(first.map(d -> String.format("The lake holds the first rows of every table after %.1f s; "
                + "faults start", d.toMillis() / 1000.0)).orElseThrow(() -> new IllegalStateException(
                "The lake did not get the first rows within " + settings.finalTimeout() + " (see the instance logs).")));
    }

    /**
     * Waits until the lake covers {@code ends} or {@code timeout} passes, running {@code duringWait} on every poll;
     * the time since {@code sinceNanos} when it did.
     */
    private static Optional<Duration> awaitCoverage(LakeCoverage coverage, Map<TableBucket, Long> ends, long sinceNanos,
            Duration timeout, Poll duringWait) throws Exception {
        return coverage.await(ends, sinceNanos, timeout, () -> {
            duringWait.run();
            Thread.sleep(POLL.toMillis());
        });
    }

    private static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }
}
