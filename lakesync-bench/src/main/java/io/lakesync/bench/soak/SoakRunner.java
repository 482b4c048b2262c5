package io.lakesync.bench.soak;

import io.lakesync.bench.cluster.BenchCluster;
import io.lakesync.bench.cluster.DataFolder;
import io.lakesync.bench.contender.ChildArgs;
import io.lakesync.bench.contender.ChildJvm;
import io.lakesync.bench.contender.Contender;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;

/**
 * Runs a soak: an embedded Fluss cluster in this JVM, the lakesync tiering service in a child JVM with its own
 * data folder, the {@link SoakWriter} writing all the time, and a loop that SIGKILLs the service and restarts it
 * on the same data folder:
 *
 * <pre>
 *   launch ──► (caught up? restart → lake covers all written before the last kill: one sample)
 *     ▲            │
 *     │            ▼
 *     │        wait as the kill is aimed (random, a round stage, or during recovery)
 *     │            │
 *     └─ restart ◄─ SIGKILL ◄─┘          × kills
 *
 *   then: writer stops ──► lake covers everything ──► service stops ──► lake read back row by row
 * </pre>
 */
final class SoakRunner {

    private static final Duration KV_SNAPSHOT_INTERVAL = Duration.ofSeconds(30);
    private static final Duration STAGE_TIMEOUT = Duration.ofMinutes(1);
    private static final Duration POLL = Duration.ofMillis(200);

    private final SoakSettings settings;
    private final Consumer<String> progress;
    private final SoakTables tables = SoakTables.standard();

    SoakRunner(SoakSettings settings, Consumer<String> progress) {
        this.settings = settings;
        this.progress = progress;
    }

    SoakResult run() throws Exception {
        return DataFolder.run(settings.dataDir(), settings.keepData(), "lakesync-soak-", progress, this::runIn);
    }

    private SoakResult runIn(Path folder) throws Exception {
        Instant startedAt = Instant.now();
        long startNanos = System.nanoTime();
        progress.accept("Starting the embedded Fluss cluster in " + folder);
        try (BenchCluster cluster = BenchCluster.start(folder.resolve("cluster"), KV_SNAPSHOT_INTERVAL)) {
            tables.create(cluster, settings.buckets(), settings.freshness());
            LakeCoverage coverage = new LakeCoverage(cluster, tables.all());
            ChildArgs serviceArgs = ChildArgs.forContender(cluster, Contender.B, folder.resolve("service"));
            serviceArgs.values().put(ChildArgs.REPORT_STAGES, "true");
            Path serviceLog = folder.resolve("service.log");
            progress.accept("Service log (all restarts): " + serviceLog);

            KillPlan plan = new KillPlan(settings.seed(), settings.maxGap());
            Map<KillPlan.Aim, Integer> aims = new EnumMap<>(KillPlan.Aim.class);
            Map<RoundStageWatch.Position, Integer> positions = new EnumMap<>(RoundStageWatch.Position.class);
            List<Long> catchUps = new ArrayList<>();
            int stalls = 0;
            int aimsMissed = 0;
            int kills = 0;
            Duration finalCatchUp;
            List<TableCheck> checks;
            SoakData data = new SoakData(settings.seed());
            try (SoakWriter writer = new SoakWriter(
                    cluster.connection(), tables, data, settings.rowsPerSecond(), settings.partitionEvery())) {
                writer.start();
                Map<TableBucket, Long> writtenBeforeKill = Map.of();
                ChildJvm service = ChildJvm.launch(serviceArgs, settings.heap(), serviceLog);
                long launchedNanos = System.nanoTime();
                try {
                    while (kills < settings.kills()) {
                        KillPlan.Kill kill = plan.next();
                        RoundStageWatch watch = new RoundStageWatch(service);
                        String caughtUpText = "killed before catching up";
                        if (kill.aim() == KillPlan.Aim.RECOVERING) {
                            watch.follow(kill.delay());
                        } else {
                            Optional<Duration> caughtUp = awaitCoverage(
                                    coverage, writtenBeforeKill, watch, launchedNanos, settings.catchUpTimeout());
                            if (kills == 0) {
                                caughtUpText = "first start";
                            } else if (caughtUp.isPresent()) {
                                catchUps.add(caughtUp.get().toMillis());
                                caughtUpText = String.format("caught up %.1f s after the restart",
                                        caughtUp.get().toMillis() / 1000.0);
                            } else {
                                stalls++;
                                caughtUpText = "NOT caught up within " + settings.catchUpTimeout();
                            }
                            if (kill.aim().stage != null && !watch.awaitStage(kill.aim().stage, STAGE_TIMEOUT)) {
                                aimsMissed++;
                            }
                            watch.follow(kill.delay());
                        }
                        if (writer.failure() != null) {
                            throw new IllegalStateException("The soak writer failed", writer.failure());
                        }
                        service.kill();
                        kills++;
                        writtenBeforeKill = coverage.endOffsets();
                        Map<String, RoundStageWatch.Position> at = watch.positionsAtDeath(tableNames());
                        aims.merge(kill.aim(), 1, Integer::sum);
                        at.values().forEach(p -> positions.merge(p, 1, Integer::sum));
                        progress.accept(String.format("kill %d/%d %s (+%d ms): %s; tables were %s",
                                kills, settings.kills(), kill.aim(), kill.delay().toMillis(), caughtUpText, at));
                        service = ChildJvm.launch(serviceArgs, settings.heap(), serviceLog);
                        launchedNanos = System.nanoTime();
                    }
                    progress.accept("Stopping the writer; waiting until the lake holds everything written");
                    writer.stop();
                    long stoppedNanos = System.nanoTime();
                    finalCatchUp = awaitCoverage(coverage, coverage.endOffsets(), new RoundStageWatch(service),
                            stoppedNanos, settings.finalTimeout()).orElse(null);
                    service.stop();
                } finally {
                    service.close();
                }
                progress.accept("Reading the lake back row by row");
                checks = new LakeVerifier(cluster.lake(), tables, progress).verify(data);
            }
            Duration took = Duration.ofNanos(System.nanoTime() - startNanos);
            return new SoakResult(settings, startedAt, took, kills, aims, positions, aimsMissed, catchUps, stalls,
                    coverage.failedReads(), finalCatchUp, checks);
        }
    }

    private List<String> tableNames() {
        return tables.all().stream().map(TablePath::toString).toList();
    }

    /**
     * Follows the service until the lake covers {@code ends} or {@code timeout} passes; the time since
     * {@code sinceNanos} when it did.
     */
    private static Optional<Duration> awaitCoverage(LakeCoverage coverage, Map<TableBucket, Long> ends,
            RoundStageWatch watch, long sinceNanos, Duration timeout) throws Exception {
        return coverage.await(ends, sinceNanos, timeout, () -> watch.follow(POLL));
    }
}
