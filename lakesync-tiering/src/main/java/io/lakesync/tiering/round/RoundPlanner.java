package io.lakesync.tiering.round;

import io.lakesync.fluss.FlussClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.annotation.Nullable;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * Decides what a round tiers: per bucket, from the offset the lake already holds (the coordinator's latest
 * lake snapshot) up to the current high watermark. A primary-key bucket the lake has never seen starts from
 * its latest KV snapshot when there is one, so the round loads the snapshot and then follows the changelog
 * from the snapshot's log offset, instead of replaying the whole changelog.
 */
public final class RoundPlanner {

    private final FlussClient fluss;

    public RoundPlanner(FlussClient fluss) {
        this.fluss = fluss;
    }

    /**
     * Plans from high watermarks read earlier with {@link #endOffsets}. They may be read before the lake's
     * offsets: a bucket whose lake offset is already past its watermark then simply has nothing to tier.
     *
     * @param tieredOffsets exclusive end offsets the lake holds per bucket (empty for a never-tiered table)
     */
    public List<BucketRange> plan(TableInfo table, Map<TableBucket, Long> tieredOffsets, List<PartitionEnds> ends)
            throws Exception {
        List<BucketRange> ranges = new ArrayList<>();
        for (PartitionEnds partition : ends) {
            planPartition(
                    table, partition.partitionId(), partition.partitionName(), partition.ends(), tieredOffsets, ranges);
        }
        return ranges;
    }

    /** The current high watermark of every bucket, per partition (one entry for a table without partitions). */
    public List<PartitionEnds> endOffsets(TableInfo table) throws Exception {
        List<Integer> buckets = IntStream.range(0, table.getNumBuckets()).boxed().collect(Collectors.toList());
        List<PartitionEnds> ends = new ArrayList<>();
        if (table.isPartitioned()) {
            for (PartitionInfo partition : fluss.partitions(table.getTablePath()).get()) {
                ends.add(new PartitionEnds(
                        partition.getPartitionId(),
                        partition.getPartitionName(),
                        fluss.highWatermarks(table, partition, buckets)));
            }
        } else {
            ends.add(new PartitionEnds(null, null, fluss.highWatermarks(table, null, buckets)));
        }
        return ends;
    }

    /**
     * The current high watermarks of table {@code tableId} at {@code path}, asked for before its table info is
     * in, when the client's metadata shows a table without partitions (its buckets come with the metadata).
     * Empty otherwise, or without a Fluss connection; {@link #fits} tells whether they are the table's.
     */
    public Optional<List<PartitionEnds>> endOffsetsBeforeInfo(TablePath path, long tableId) throws Exception {
        return fluss.unpartitionedHighWatermarks(path, tableId)
                .map(ends -> List.of(new PartitionEnds(null, null, ends)));
    }

    /** Whether {@code ends} has every bucket of {@code table} and nothing else: one entry, no partitions. */
    public static boolean fits(TableInfo table, List<PartitionEnds> ends) {
        return !table.isPartitioned()
                && ends.size() == 1
                && ends.get(0).partitionId() == null
                && ends.get(0).ends().keySet().equals(
                        IntStream.range(0, table.getNumBuckets()).boxed().collect(Collectors.toSet()));
    }

    /** The high watermarks of one partition's buckets (partition id and name null for a table without partitions). */
    public record PartitionEnds(@Nullable Long partitionId, @Nullable String partitionName, Map<Integer, Long> ends) {}

    private void planPartition(
            TableInfo table,
            @Nullable Long partitionId,
            @Nullable String partitionName,
            Map<Integer, Long> endOffsets,
            Map<TableBucket, Long> tieredOffsets,
            List<BucketRange> ranges)
            throws Exception {
        KvSnapshots kvSnapshots = null;
        for (Map.Entry<Integer, Long> entry : endOffsets.entrySet()) {
            long end = entry.getValue();
            TableBucket bucket = new TableBucket(table.getTableId(), partitionId, entry.getKey());
            Long tiered = tieredOffsets.get(bucket);
            if (tiered != null && tiered >= 0) {
                if (tiered < end) {
                    ranges.add(new BucketRange(bucket, partitionName, null, tiered, end));
                }
                continue;
            }
            if (end <= 0) {
                continue;
            }
            if (table.hasPrimaryKey()) {
                if (kvSnapshots == null) {
                    kvSnapshots = fluss.latestKvSnapshots(table.getTablePath(), partitionName).get();
                }
                OptionalLong snapshotId = kvSnapshots.getSnapshotId(bucket.getBucket());
                OptionalLong snapshotLogOffset = kvSnapshots.getLogOffset(bucket.getBucket());
                if (snapshotId.isPresent() && snapshotLogOffset.isPresent()) {
                    ranges.add(
                            new BucketRange(
                                    bucket,
                                    partitionName,
                                    snapshotId.getAsLong(),
                                    snapshotLogOffset.getAsLong(),
                                    Math.max(end, snapshotLogOffset.getAsLong())));
                    continue;
                }
            }
            ranges.add(new BucketRange(bucket, partitionName, null, BucketRange.EARLIEST, end));
        }
    }
}
