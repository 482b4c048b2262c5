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
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.fluss.metadata.TablePath;

/**
 * The end of a backfill: every bucket of every table has lake offset = Fluss end offset, as the coordinator
 * reports them (a bucket never written counts as synced). Polled every {@value #POLL_MILLIS} ms; the first lake
 * offsets seen for each table (those of the contender's first commit) are handed to a listener.
 */
final class SyncWait {

    static final long POLL_MILLIS = 50;
    private static final long PROGRESS_EVERY_NANOS = Duration.ofSeconds(10).toNanos();

    private SyncWait() {}

    static Outcome await(
            BenchCluster cluster,
            Map<TablePath, Integer> bucketsByTable,
            ChildJvm contender,
            Duration timeout,
            Consumer<String> progress,
            BiConsumer<TablePath, Map<Integer, Long>> firstCommit)
            throws Exception {
        long start = System.nanoTime();
        long nextProgress = start + PROGRESS_EVERY_NANOS;
        Map<TablePath, Integer> pending = new LinkedHashMap<>(bucketsByTable);
        Set<TablePath> committed = new HashSet<>();
        while (true) {
            pending.keySet().removeAll(synced(cluster, pending, committed, firstCommit));
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
                        Durations.text(timeout), pending.size(), bucketsByTable.size()),
                        null);
            }
            if (System.nanoTime() > nextProgress) {
                progress.accept(String.format("  %.0f s: %d of %d tables synced",
                        elapsed, bucketsByTable.size() - pending.size(), bucketsByTable.size()));
                nextProgress += PROGRESS_EVERY_NANOS;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    private static List<TablePath> synced(
            BenchCluster cluster,
            Map<TablePath, Integer> tables,
            Set<TablePath> committed,
            BiConsumer<TablePath, Map<Integer, Long>> firstCommit) {
        Map<TablePath, CompletableFuture<Map<Integer, Long>>> ends = new LinkedHashMap<>();
        Map<TablePath, CompletableFuture<Map<Integer, Long>>> lakes = new LinkedHashMap<>();
        tables.forEach((path, buckets) -> {
            ends.put(path, cluster.endOffsets(path, buckets));
            lakes.put(path, cluster.lakeOffsets(path));
        });
        List<TablePath> done = new ArrayList<>();
        for (TablePath path : tables.keySet()) {
            Map<Integer, Long> lake = lakes.get(path).join();
            if (!lake.isEmpty() && committed.add(path)) {
                firstCommit.accept(path, lake);
            }
            if (caughtUp(ends.get(path).join(), lake)) {
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
