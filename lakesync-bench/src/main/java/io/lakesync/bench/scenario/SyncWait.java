package io.lakesync.bench.scenario;

import io.lakesync.bench.cluster.BenchCluster;
import io.lakesync.bench.contender.ChildJvm;
import io.lakesync.bench.measure.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.fluss.metadata.TablePath;

/**
 * The end of a backfill: every bucket of every table has lake offset = Fluss end offset, as the coordinator
 * registered them ({@link BenchCluster#registeredLakeOffsets}; a bucket never written counts as synced). The end
 * offsets are read once, before the contender starts (nothing writes during a backfill); the lake offsets of the
 * tables not yet synced, among those with a Paimon commit since the contender started ({@link LakeCommitWatch}),
 * are polled every {@value #POLL_MILLIS} ms, less often while many are asked about so the driver reads at most
 * {@value #MAX_READS_PER_SECOND} tables a second (asking the coordinator about 200 tables every 50 ms took a
 * core away from the contenders). The first lake offsets seen for each table (those of the contender's first
 * commit) are handed to a listener.
 */
final class SyncWait {

    static final long POLL_MILLIS = 50;
    static final int MAX_READS_PER_SECOND = 400;
    private static final long PROGRESS_EVERY_NANOS = Duration.ofSeconds(10).toNanos();

    private SyncWait() {}

    static Outcome await(
            BenchCluster cluster,
            Map<TablePath, Map<Integer, Long>> endOffsets,
            Map<TablePath, Long> tableIds,
            LakeCommitWatch lakeCommits,
            ChildJvm contender,
            Duration timeout,
            Consumer<String> progress,
            BiConsumer<TablePath, Map<Integer, Long>> firstCommit)
            throws Exception {
        long start = System.nanoTime();
        long nextProgress = start + PROGRESS_EVERY_NANOS;
        Map<TablePath, Map<Integer, Long>> pending = new LinkedHashMap<>(endOffsets);
        Set<TablePath> committed = new HashSet<>();
        while (true) {
            Map<TablePath, Map<Integer, Long>> asked = new LinkedHashMap<>();
            pending.forEach((path, ends) -> {
                if (lakeCommits.committedSinceStart(path)) {
                    asked.put(path, ends);
                }
            });
            pending.keySet().removeAll(synced(cluster, asked, tableIds, committed, firstCommit));
            double elapsed = (System.nanoTime() - start) / 1e9;
            if (pending.isEmpty()) {
                return new Outcome(true, elapsed, null, null);
            }
            Optional<String> failure = contender.failure();
            if (failure.isPresent()) {
                return new Outcome(false, elapsed, "failed: " + failure.get(), null);
            }
            if (System.nanoTime() - start > timeout.toNanos()) {
                return new Outcome(false, elapsed, String.format("not synced within %s: %d of %d tables behind",
                        Durations.text(timeout), pending.size(), endOffsets.size()),
                        null);
            }
            if (System.nanoTime() > nextProgress) {
                progress.accept(String.format("  %.0f s: %d of %d tables synced",
                        elapsed, endOffsets.size() - pending.size(), endOffsets.size()));
                nextProgress += PROGRESS_EVERY_NANOS;
            }
            Thread.sleep(pollMillis(asked.size()));
        }
    }

    static long pollMillis(int askedTables) {
        return Math.max(POLL_MILLIS, 1000L * askedTables / MAX_READS_PER_SECOND);
    }

    private static List<TablePath> synced(
            BenchCluster cluster,
            Map<TablePath, Map<Integer, Long>> tables,
            Map<TablePath, Long> tableIds,
            Set<TablePath> committed,
            BiConsumer<TablePath, Map<Integer, Long>> firstCommit)
            throws Exception {
        List<TablePath> done = new ArrayList<>();
        for (Map.Entry<TablePath, Map<Integer, Long>> table : tables.entrySet()) {
            TablePath path = table.getKey();
            Map<Integer, Long> lake = cluster.registeredLakeOffsets(tableIds.get(path));
            if (!lake.isEmpty() && committed.add(path)) {
                firstCommit.accept(path, lake);
            }
            if (caughtUp(table.getValue(), lake)) {
                done.add(path);
            }
        }
        return done;
    }

    static boolean caughtUp(Map<Integer, Long> ends, Map<Integer, Long> lake) {
        return ends.entrySet().stream()
                .allMatch(e -> e.getValue() == 0 || lake.getOrDefault(e.getKey(), -1L) >= e.getValue());
    }
}
