package io.lakesync.bench.soak;

import io.lakesync.bench.cluster.BenchCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where Fluss ends and how far the lake reaches, bucket by bucket (partitions included): what "the lake covers
 * everything written before a kill" means.
 */
public final class LakeCoverage {

    private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(1);

    private static final Logger LOG = LoggerFactory.getLogger(LakeCoverage.class);

    private final BenchCluster cluster;
    private final Admin admin;
    private final List<TablePath> tables;
    private int failedReads;

    public LakeCoverage(BenchCluster cluster, List<TablePath> tables) {
        this.cluster = cluster;
        this.admin = cluster.connection().getAdmin();
        this.tables = tables;
    }

    /**
     * Fluss end offsets (high watermarks) now, of every non-empty bucket of every table; each request waits at most
     * {@link #REQUEST_TIMEOUT} (a bucket whose leader is gone for good would otherwise hold the caller for ever).
     */
    public Map<TableBucket, Long> endOffsets() throws Exception {
        List<CompletableFuture<Map<TableBucket, Long>>> requests = new ArrayList<>();
        for (TablePath path : tables) {
            TableInfo info = admin.getTableInfo(path).get(REQUEST_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            List<Integer> buckets = IntStream.range(0, info.getNumBuckets()).boxed().toList();
            if (info.isPartitioned()) {
                for (PartitionInfo partition : admin.listPartitionInfos(path).get(REQUEST_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    requests.add(admin.listOffsets(path, partition.getPartitionName(), buckets, new OffsetSpec.LatestSpec())
                            .all()
                            .thenApply(offsets -> keyed(offsets, info.getTableId(), partition.getPartitionId())));
                }
            } else {
                requests.add(admin.listOffsets(path, buckets, new OffsetSpec.LatestSpec())
                        .all()
                        .thenApply(offsets -> keyed(offsets, info.getTableId(), null)));
            }
        }
        Map<TableBucket, Long> ends = new HashMap<>();
        for (CompletableFuture<Map<TableBucket, Long>> request : requests) {
            ends.putAll(request.get(REQUEST_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        }
        ends.values().removeIf(offset -> offset == 0);
        return ends;
    }

    /**
     * Whether the coordinator's latest lake snapshots reach {@code ends} in every bucket; false when the
     * coordinator could not read its latest snapshot this time.
     *
     * <p>Fluss 0.9.1 reads a lake snapshot as "path from ZooKeeper, then the offsets file", and deletes the
     * previous offsets file when a new snapshot is committed; a read that falls between the two fails with
     * {@code FileNotFoundException} for the file just replaced. The next poll reads the new one.
     */
    public boolean covers(Map<TableBucket, Long> ends) throws Exception {
        Map<TableBucket, Long> lake;
        try {
            lake = lakeOffsets();
        } catch (ExecutionException e) {
            failedReads++;
            LOG.info("The coordinator could not read a lake snapshot (read again at the next poll): {}", e.getMessage());
            return false;
        }
        return ends.entrySet().stream().allMatch(e -> lake.getOrDefault(e.getKey(), -1L) >= e.getValue());
    }

    /** What a wait does between two looks at the lake: it waits a little, and may watch other things meanwhile. */
    @FunctionalInterface
    public interface Pause {
        void pause() throws Exception;
    }

    /**
     * Waits until the lake covers {@code ends} or {@code timeout} passes since {@code sinceNanos}, with
     * {@code pause} between two looks; the time since {@code sinceNanos} when it did.
     */
    public Optional<Duration> await(Map<TableBucket, Long> ends, long sinceNanos, Duration timeout, Pause pause)
            throws Exception {
        while (true) {
            Duration elapsed = Duration.ofNanos(System.nanoTime() - sinceNanos);
            if (covers(ends)) {
                return Optional.of(elapsed);
            }
            if (elapsed.compareTo(timeout) > 0) {
                return Optional.empty();
            }
            pause.pause();
        }
    }

    /** Lake snapshot reads the coordinator failed so far (see {@link #covers}). */
    public int failedReads() {
        return failedReads;
    }

    /** The lake's end offsets per bucket, from the coordinator's latest lake snapshots. */
    public Map<TableBucket, Long> lakeOffsets() throws Exception {
        List<CompletableFuture<Map<TableBucket, Long>>> requests = new ArrayList<>();
        for (TablePath path : tables) {
            requests.add(cluster.lakeBucketOffsets(path));
        }
        Map<TableBucket, Long> lake = new HashMap<>();
        for (CompletableFuture<Map<TableBucket, Long>> request : requests) {
            lake.putAll(request.get());
        }
        return lake;
    }

    private static Map<TableBucket, Long> keyed(Map<Integer, Long> offsets, long tableId, Long partitionId) {
        Map<TableBucket, Long> keyed = new HashMap<>();
        offsets.forEach((bucket, offset) -> keyed.put(new TableBucket(tableId, partitionId, bucket), offset));
        return keyed;
    }
}
