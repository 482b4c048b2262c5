package io.lakesync.status;

import io.lakesync.tiering.connection.Deadline;
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
 * The {@link TableObserver} of a Fluss cluster and its lake. Reads what the cluster says about each table: lake sync on or off, the readable lake snapshot the
 * coordinator registered and when Paimon committed it, per-bucket tiered and end offsets, and the timestamp
 * of the oldest record not yet in the lake. That last one is read from the Fluss log at the bucket's tiered
 * offset, once per offset (cached), so an unchanged checkpoint costs no reads. Every remote call waits at most
 * until the caller's {@link Deadline}: a server that never answers makes the call fail, never hang.
 */
public final class ClusterObserver implements TableObserver {

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

    @Override
    public List<TablePath> listTables(Deadline deadline) throws Exception {
        List<TablePath> tables = new ArrayList<>();
        for (String database : deadline.await(admin.listDatabases(), "Fluss (list databases)")) {
            for (String table : deadline.await(admin.listTables(database), "Fluss (list tables of " + database + ")")) {
                tables.add(TablePath.of(database, table));
            }
        }
        return tables;
    }

    /** Lists the lake's databases. */
    @Override
    public void probeLake(Deadline deadline) throws Exception {
        deadline.call(() -> lakeTables.catalog().listDatabases(), "The lake catalog");
    }

    @Override
    public TableObservation observe(TablePath path, Deadline deadline) throws Exception {
        TableInfo info = deadline.await(admin.getTableInfo(path), "Fluss (table info of " + path + ")");
        boolean enabled = info.getTableConfig().isDataLakeEnabled();
        Duration freshness = info.getTableConfig().getDataLakeFreshness();
        if (!enabled) {
            return new TableObservation(path, info.getTableId(), false, freshness, null, null, List.of(), null, clock.instant());
        }
        LakeSnapshot lake = readableLakeSnapshot(path, deadline);
        Map<TableBucket, Long> tiered = lake == null ? Map.of() : lake.getTableBucketsOffset();
        List<BucketCheckpoint> buckets = new ArrayList<>();
        List<TableBucket> pendingBuckets = new ArrayList<>();
        Map<TableBucket, Long> ends = new HashMap<>();
        Map<TableBucket, String> partitionNames = new HashMap<>();
        collectEndOffsets(info, ends, partitionNames, deadline);
        for (Map.Entry<TableBucket, Long> end : ends.entrySet()) {
            long tieredOffset = tiered.getOrDefault(end.getKey(), -1L);
            buckets.add(new BucketCheckpoint(partitionNames.get(end.getKey()), end.getKey().getBucket(), tieredOffset, end.getValue()));
            if (end.getValue() > Math.max(tieredOffset, 0)) {
                pendingBuckets.add(end.getKey());
            }
        }
        Instant committedAt = lake == null ? null : paimonCommitTime(path, lake.getSnapshotId(), deadline);
        Instant oldest = pendingBuckets.isEmpty() ? null : oldestPendingRecord(path, pendingBuckets, tiered, deadline);
        return new TableObservation(
                path, info.getTableId(), true, freshness, lake == null ? null : lake.getSnapshotId(), committedAt,
                buckets, oldest, clock.instant());
    }

    private void collectEndOffsets(
            TableInfo info, Map<TableBucket, Long> ends, Map<TableBucket, String> names, Deadline deadline)
            throws Exception {
        String what = "Fluss (end offsets of " + info.getTablePath() + ")";
        List<Integer> buckets = IntStream.range(0, info.getNumBuckets()).boxed().collect(Collectors.toList());
        if (info.isPartitioned()) {
            for (PartitionInfo partition : deadline.await(admin.listPartitionInfos(info.getTablePath()), what)) {
                deadline.awaitStarted(
                                () -> admin.listOffsets(info.getTablePath(), partition.getPartitionName(), buckets, new OffsetSpec.LatestSpec())
                                        .all(),
                                what)
                        .forEach((b, o) -> {
                            TableBucket bucket = new TableBucket(info.getTableId(), partition.getPartitionId(), b);
                            ends.put(bucket, o);
                            names.put(bucket, partition.getPartitionName());
                        });
            }
        } else {
            deadline.awaitStarted(() -> admin.listOffsets(info.getTablePath(), buckets, new OffsetSpec.LatestSpec()).all(), what)
                    .forEach((b, o) -> ends.put(new TableBucket(info.getTableId(), b), o));
        }
    }

    @Nullable
    private LakeSnapshot readableLakeSnapshot(TablePath path, Deadline deadline) throws Exception {
        try {
            return deadline.await(admin.getReadableLakeSnapshot(path), "Fluss (lake snapshot of " + path + ")");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LakeTableSnapshotNotExistException) {
                return null;
            }
            throw e;
        }
    }

    @Nullable
    private Instant paimonCommitTime(TablePath path, long snapshotId, Deadline deadline) {
        try {
            Snapshot snapshot = deadline.call(
                    () -> lakeTables.load(path).snapshotManager().tryGetSnapshot(snapshotId), "The lake (snapshot of " + path + ")");
            return Instant.ofEpochMilli(snapshot.timeMillis());
        } catch (Exception e) {
            // Expired or unreadable: the checkpoint age then falls back to when the lag was first seen.
            return null;
        }
    }

    /** The earliest timestamp among the first untiered record of each pending bucket. */
    @Nullable
    private Instant oldestPendingRecord(
            TablePath path, List<TableBucket> pending, Map<TableBucket, Long> tiered, Deadline deadline)
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
        try (Table table = deadline.call(() -> connection.getTable(path), "Fluss (table " + path + ")");
                LogScanner scanner = table.newScan().createLogScanner()) {
            for (Map.Entry<TableBucket, Long> probe : toProbe.entrySet()) {
                long from = probe.getValue() < 0 ? LogScanner.EARLIEST_OFFSET : probe.getValue();
                if (probe.getKey().getPartitionId() == null) {
                    scanner.subscribe(probe.getKey().getBucket(), from);
                } else {
                    scanner.subscribe(probe.getKey().getPartitionId(), probe.getKey().getBucket(), from);
                }
            }
            long probeEnd = System.nanoTime() + PROBE_TIMEOUT.toNanos();
            while (!toProbe.isEmpty() && System.nanoTime() < probeEnd && !deadline.expired()) {
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
