package io.lakesync.tiering.round;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.annotation.Nullable;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;

/**
 * Decides what a round tiers: per bucket, from the offset the lake already holds (the coordinator's latest
 * lake snapshot) up to the current high watermark. A primary-key bucket the lake has never seen starts from
 * its latest KV snapshot when there is one, so the round loads the snapshot and then follows the changelog
 * from the snapshot's log offset, instead of replaying the whole changelog.
 */
public final class RoundPlanner {

    private final Admin admin;

    public RoundPlanner(Admin admin) {
        this.admin = admin;
    }

    /**
     * @param tieredOffsets exclusive end offsets the lake holds per bucket (empty for a never-tiered table)
     */
    public List<BucketRange> plan(TableInfo table, Map<TableBucket, Long> tieredOffsets) throws Exception {
        List<Integer> buckets = IntStream.range(0, table.getNumBuckets()).boxed().collect(Collectors.toList());
        List<BucketRange> ranges = new ArrayList<>();
        if (table.isPartitioned()) {
            for (PartitionInfo partition : admin.listPartitionInfos(table.getTablePath()).get()) {
                Map<Integer, Long> ends =
                        admin.listOffsets(
                                        table.getTablePath(),
                                        partition.getPartitionName(),
                                        buckets,
                                        new OffsetSpec.LatestSpec())
                                .all()
                                .get();
                planPartition(table, partition.getPartitionId(), partition.getPartitionName(), ends, tieredOffsets, ranges);
            }
        } else {
            Map<Integer, Long> ends =
                    admin.listOffsets(table.getTablePath(), buckets, new OffsetSpec.LatestSpec()).all().get();
            planPartition(table, null, null, ends, tieredOffsets, ranges);
        }
        return ranges;
    }

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
                    kvSnapshots =
                            partitionName == null
                                    ? admin.getLatestKvSnapshots(table.getTablePath()).get()
                                    : admin.getLatestKvSnapshots(table.getTablePath(), partitionName).get();
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
