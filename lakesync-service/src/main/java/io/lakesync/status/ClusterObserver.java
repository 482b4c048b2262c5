package io.lakesync.status;

import io.lakesync.tiering.lake.LakeTables;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.annotation.Nullable;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.Snapshot;

/**
 * Reads what the cluster says about each table: lake sync on or off, the readable lake snapshot the
 * coordinator registered and when Paimon committed it, per-bucket tiered and end offsets, and the timestamp
 * of the oldest record not yet in the lake. That last one is read from the Fluss log at the bucket's tiered
 * offset, once per offset (cached), so an unchanged checkpoint costs no reads.
 */
public final class ClusterObserver {

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    private final Connection connection;
    private final Admin admin;
    private final LakeTables lakeTables;
    private final Clock clock;
    private final Map<TableBucket, Map.Entry<Long, Instant>> recordTimeAtOffset = new ConcurrentHashMap<>();

    public ClusterObserver(Connection connection, LakeTables lakeTables, Clock clock) {
        this.connection = connection;
        this.admin = connection.getAdmin();
        this.lakeTables = lakeTables;
        this.clock = clock;
    }

    /** Every table of every database. */
    public List<TablePath> listTables() throws Exception {
        List<TablePath> tables = new ArrayList<>();
        for (String database : admin.listDatabases().get()) {
            for (String table : admin.listTables(database).get()) {
                tables.add(TablePath.of(database, table));
            }
        }
        return tables;
    }

    public TableObservation observe(TablePath path) throws Exception {
        TableInfo info = admin.getTableInfo(path).get();
        boolean enabled = info.getTableConfig().isDataLakeEnabled();
        Duration freshness = info.getTableConfig().getDataLakeFreshness();
        if (!enabled) {
            return new TableObservation(path, info.getTableId(), false, freshness, null, null, List.of(), null, clock.instant());
        }
        LakeSnapshot lake = readableLakeSnapshot(path);
        Map<TableBucket, Long> tiered = lake == null ? Map.of() : lake.getTableBucketsOffset();
        List<BucketCheckpoint> buckets = new ArrayList<>();
        List<TableBucket> pendingBuckets = new ArrayList<>();
        Map<TableBucket, Long> ends = new HashMap<>();
        Map<TableBucket, String> partitionNames = new HashMap<>();
        collectEndOffsets(info, ends, partitionNames);
        for (Map.Entry<TableBucket, Long> end : ends.entrySet()) {
            long tieredOffset = tiered.getOrDefault(end.getKey(), -1L);
            buckets.add(new BucketCheckpoint(partitionNames.get(end.getKey()), end.getKey().getBucket(), tieredOffset, end.getValue()));
            if (end.getValue() > Math.max(tieredOffset, 0)) {
                pendingBuckets.add(end.getKey());
            }
        }
        Instant committedAt = lake == null ? null : paimonCommitTime(path, lake.getSnapshotId());
        Instant oldest = pendingBuckets.isEmpty() ? null : oldestPendingRecord(path, pendingBuckets, tiered);
        return new TableObservation(
                path, info.getTableId(), true, freshness, lake == null ? null : lake.getSnapshotId(), committedAt,
                buckets, oldest, clock.instant());
    }

    private void collectEndOffsets(TableInfo info, Map<TableBucket, Long> ends, Map<TableBucket, String> names)
            throws Exception {
        List<Integer> buckets = IntStream.range(0, info.getNumBuckets()).boxed().collect(Collectors.toList());
        if (info.isPartitioned()) {
            for (PartitionInfo partition : admin.listPartitionInfos(info.getTablePath()).get()) {
                admin.listOffsets(info.getTablePath(), partition.getPartitionName(), buckets, new OffsetSpec.LatestSpec())
                        .all()
                        .get()
                        .forEach((b, o) -> {
                            TableBucket bucket = new TableBucket(info.getTableId(), partition.getPartitionId(), b);
                            ends.put(bucket, o);
                            names.put(bucket, partition.getPartitionName());
                        });
            }
        } else {
            admin.listOffsets(info.getTablePath(), buckets, new OffsetSpec.LatestSpec())
                    .all()
                    .get()
                    .forEach((b, o) -> ends.put(new TableBucket(info.getTableId(), b), o));
        }
    }

    @Nullable
    private LakeSnapshot readableLakeSnapshot(TablePath path) throws Exception {
        try {
            return admin.getReadableLakeSnapshot(path).get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LakeTableSnapshotNotExistException) {
                return null;
            }
            throw e;
        }
    }

    @Nullable
    private Instant paimonCommitTime(TablePath path, long snapshotId) {
        try {
            Snapshot snapshot = lakeTables.load(path).snapshotManager().tryGetSnapshot(snapshotId);
            return Instant.ofEpochMilli(snapshot.timeMillis());
        } catch (Exception e) {
            // Expired or unreadable: the checkpoint age then falls back to when the lag was first seen.
            return null;
        }
    }

    /** The earliest timestamp among the first untiered record of each pending bucket. */
    @Nullable
    private Instant oldestPendingRecord(TablePath path, List<TableBucket> pending, Map<TableBucket, Long> tiered)
            throws Exception {
        Map<TableBucket, Long> toProbe = new HashMap<>();
        Instant oldest = null;
        for (TableBucket bucket : pending) {
            long offset = tiered.getOrDefault(bucket, -1L);
            Map.Entry<Long, Instant> cached = recordTimeAtOffset.get(bucket);
            if (cached != null && cached.getKey() == offset) {
                oldest = min(oldest, cached.getValue());
            } else {
                toProbe.put(bucket, offset);
            }
        }
        if (toProbe.isEmpty()) {
            return oldest;
        }
        try (Table table = connection.getTable(path);
                LogScanner scanner = table.newScan().createLogScanner()) {
            for (Map.Entry<TableBucket, Long> probe : toProbe.entrySet()) {
                long from = probe.getValue() < 0 ? LogScanner.EARLIEST_OFFSET : probe.getValue();
                if (probe.getKey().getPartitionId() == null) {
                    scanner.subscribe(probe.getKey().getBucket(), from);
                } else {
                    scanner.subscribe(probe.getKey().getPartitionId(), probe.getKey().getBucket(), from);
                }
            }
            long deadline = System.nanoTime() + PROBE_TIMEOUT.toNanos();
            while (!toProbe.isEmpty() && System.nanoTime() < deadline) {
                ScanRecords records = scanner.poll(Duration.ofMillis(200));
                for (TableBucket bucket : records.buckets()) {
                    Long offset = toProbe.remove(bucket);
                    List<ScanRecord> found = records.records(bucket);
                    if (offset != null && !found.isEmpty()) {
                        Instant at = Instant.ofEpochMilli(found.get(0).timestamp());
                        recordTimeAtOffset.put(bucket, Map.entry(offset, at));
                        oldest = min(oldest, at);
                    }
                }
            }
        }
        return oldest;
    }

    private static Instant min(@Nullable Instant a, Instant b) {
        return a == null || b.isBefore(a) ? b : a;
    }
}
