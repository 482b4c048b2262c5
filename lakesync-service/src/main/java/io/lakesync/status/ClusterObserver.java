package io.lakesync.status;

import io.lakesync.fluss.BucketHeads;
import io.lakesync.fluss.Deadline;
import io.lakesync.fluss.FlussClient;
import io.lakesync.tiering.lake.LakeTables;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.annotation.Nullable;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.Snapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link TableObserver} of a Fluss cluster and its lake. Reads what the cluster says about each table: lake sync on
 * or off, the readable lake snapshot the coordinator registered and when Paimon committed it, per-bucket tiered and end
 * offsets, and the timestamp of the oldest record not yet in the lake.
 *
 * <p>A refresh reads all tables together ({@link #observeAll}), so its cost grows with the tables' buckets, not with
 * round trips per table:
 *
 * <pre>
 *   every table's info ── one metadata request for all tables, answered from the coordinator's memory
 *          ▼
 *   the readable lake snapshot of each lake table that may have a new one ({@link LakeSnapshotCache}: a round of
 *   it ended, its pending records outlived its freshness, or {@value #RECHECK_REFRESHES} refreshes passed), and
 *   every partitioned table's partitions ── one request per table, {@value #IN_FLIGHT} in flight
 *          ▼
 *   every bucket's end offset, and the append time of its first untiered record where not known yet
 *          ── one fetch per tablet server for all buckets ({@link BucketHeads})
 *          ▼
 *   when Paimon committed each lake snapshot ── read once per (table, snapshot), on the pool
 *          ▼
 *   a table whose first untiered record is not in the leader's local log (remote storage, a truncated log)
 *          ── observed on its own on the pool: end offsets listed, the record read with a log scanner
 * </pre>
 *
 * What cannot change is kept: the append time of the record at each bucket's tiered offset, and the commit time of
 * each table's lake snapshot, so an unchanged checkpoint costs no reads; and each table's readable lake snapshot
 * until something says it may have changed. Every call waits at most until the refresh's
 * {@link Deadline}: a server that never answers fails the tables it serves, never hangs the refresh.
 */
public final class ClusterObserver implements TableObserver {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterObserver.class);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    /** Requests of one refresh in flight at once; a Fluss server pauses a connection with 62 queued (0.9.1). */
    private static final int IN_FLIGHT = 32;
    /**
     * After how many refreshes a table's readable lake snapshot is asked for again in any case (a minute at the default
     * interval): what else moves it is seen sooner (see {@link LakeSnapshotCache}).
     */
    private static final int RECHECK_REFRESHES = 12;

    private final FlussClient fluss;
    private final LakeTables lakeTables;
    private final Clock clock;
    /** Per bucket: the tiered offset and when the record there was appended. */
    private final Map<TableBucket, Map.Entry<Long, Instant>> recordTimeAtOffset = new ConcurrentHashMap<>();
    /** Per table id: the readable lake snapshot and when Paimon committed it. */
    private final Map<Long, Map.Entry<Long, Instant>> commitTimeOfSnapshot = new ConcurrentHashMap<>();
    private final LakeSnapshotCache lakeSnapshots;

    public ClusterObserver(FlussClient fluss, LakeTables lakeTables, Clock clock) {
        this.fluss = fluss;
        this.lakeTables = lakeTables;
        this.clock = clock;
        this.lakeSnapshots = new LakeSnapshotCache(clock, RECHECK_REFRESHES);
    }

    @Override
    public List<TablePath> listTables(Deadline deadline) throws Exception {
        return deadline.await(fluss.allTables(), "Fluss (list tables)");
    }

    /** Lists the lake's databases. */
    @Override
    public void probeLake(Deadline deadline) throws Exception {
        deadline.call(() -> lakeTables.catalog().listDatabases(), "The lake catalog");
    }

    @Override
    public TableObservation observe(TablePath path, Deadline deadline) throws Exception {
        try {
            return observeTogether(List.of(path), Map.of(), deadline, Runnable::run, false).get(0).get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /** Observes the tables of a refresh together; forgets what it kept of tables no longer listed. */
    @Override
    public List<CompletableFuture<TableObservation>> observeAll(
            List<TablePath> tables, Map<String, EngineActivity> activity, Duration callTimeout, ExecutorService pool) {
        return observeTogether(tables, activity, Deadline.in(callTimeout), pool, true);
    }

    /** What a refresh learnt of one lake table before reading its buckets. */
    private record LakeTable(TableInfo info, @Nullable LakeSnapshot lake, Map<TableBucket, String> partitionOf) {

        long tiered(TableBucket bucket) {
            return lake == null ? -1L : lake.getTableBucketsOffset().getOrDefault(bucket, -1L);
        }
    }

    /**
     * {@code everyTable}: these are all the tables of a refresh, so what is kept of others can go, and a table's
     * readable lake snapshot is asked for only when {@link LakeSnapshotCache} says so; otherwise everything is asked.
     */
    private List<CompletableFuture<TableObservation>> observeTogether(List<TablePath> tables,
            Map<String, EngineActivity> activity, Deadline deadline, Executor pool, boolean everyTable) {
        Map<TablePath, CompletableFuture<TableInfo>> infos = tableInfos(tables, deadline);
        Map<TablePath, CompletableFuture<TableObservation>> results = new LinkedHashMap<>();
        Map<TablePath, TableInfo> enabled = new LinkedHashMap<>();
        for (TablePath path : tables) {
            try {
                TableInfo info = deadline.await(infos.get(path), "Fluss (table info of " + path + ")");
                if (info.getTableConfig().isDataLakeEnabled()) {
                    enabled.put(path, info);
                } else {
                    results.put(path, CompletableFuture.completedFuture(new TableObservation(path, info.getTableId(),
                            false, info.getTableConfig().getDataLakeFreshness(), null, null, List.of(), null,
                            clock.instant())));
                }
            } catch (Exception e) {
                results.put(path, failed(e));
            }
        }
        Window window = new Window(deadline);
        Map<TablePath, CompletableFuture<LakeSnapshot>> lakes = new HashMap<>();
        Map<TablePath, Long> roundsEndedWhenAsked = new HashMap<>();
        Map<TablePath, CompletableFuture<List<PartitionInfo>>> partitions = new HashMap<>();
        if (everyTable) {
            lakeSnapshots.nextRefresh();
        }
        for (TableInfo info : enabled.values()) {
            TablePath path = info.getTablePath();
            // Read before the request goes out: a round ending after this changes it, so its commit is asked for.
            long roundsEnded = activity.getOrDefault(path.toString(), EngineActivity.NONE).roundsEnded();
            if (!everyTable || lakeSnapshots.mustAsk(
                    info.getTableId(), roundsEnded, info.getTableConfig().getDataLakeFreshness())) {
                roundsEndedWhenAsked.put(path, roundsEnded);
                lakes.put(path, window.send(() -> fluss.readableLakeSnapshot(path)));
            }
            if (info.isPartitioned()) {
                partitions.put(path, window.send(() -> fluss.partitions(path)));
            }
        }
        if (everyTable && results.values().stream().noneMatch(CompletableFuture::isCompletedExceptionally)) {
            Set<Long> ids = new HashSet<>();
            enabled.values().forEach(info -> ids.add(info.getTableId()));
            recordTimeAtOffset.keySet().removeIf(bucket -> !ids.contains(bucket.getTableId()));
            commitTimeOfSnapshot.keySet().removeIf(id -> !ids.contains(id));
            lakeSnapshots.retainOnly(ids);
        }
        Map<TablePath, LakeTable> lakeTables = new LinkedHashMap<>();
        for (Map.Entry<TablePath, TableInfo> table : enabled.entrySet()) {
            TablePath path = table.getKey();
            TableInfo info = table.getValue();
            try {
                LakeSnapshot lake = lakes.containsKey(path)
                        ? readable(lakes.get(path), info, roundsEndedWhenAsked.get(path), everyTable, deadline)
                        : lakeSnapshots.snapshot(info.getTableId());
                Map<TableBucket, String> partitionOf = new HashMap<>();
                List<Integer> buckets = IntStream.range(0, info.getNumBuckets()).boxed().toList();
                if (info.isPartitioned()) {
                    for (PartitionInfo partition : deadline.await(partitions.get(path), "Fluss (partitions of " + path + ")")) {
                        buckets.forEach(b -> partitionOf.put(new TableBucket(info.getTableId(), partition.getPartitionId(), b),
                                partition.getPartitionName()));
                    }
                } else {
                    buckets.forEach(b -> partitionOf.put(new TableBucket(info.getTableId(), b), null));
                }
                lakeTables.put(path, new LakeTable(info, lake, partitionOf));
            } catch (Exception e) {
                results.put(path, failed(e));
            }
        }
        Map<TableBucket, BucketHeads.Head> heads = readHeads(lakeTables.values(), deadline);
        for (Map.Entry<TablePath, LakeTable> table : lakeTables.entrySet()) {
            CompletableFuture<TableObservation> observation = observe(table.getValue(), heads, deadline, pool);
            if (everyTable) {
                long id = table.getValue().info().getTableId();
                observation = observation.thenApply(seen -> {
                    lakeSnapshots.observed(id, seen.pendingRecords() > 0);
                    return seen;
                });
            }
            results.put(table.getKey(), observation);
        }
        List<CompletableFuture<TableObservation>> ordered = new ArrayList<>(tables.size());
        tables.forEach(path -> ordered.add(results.get(path)));
        return ordered;
    }

    /**
     * Every table's info, from one metadata request for all of them to the coordinator: it answers from the table
     * infos it keeps in memory (current with every ALTER TABLE), where a tablet server reads each table from ZooKeeper
     * one after another (seconds at 1,000 tables). Fluss fails the whole request when one table does not exist
     * (dropped since it was listed); then each table's info is asked for on its own. A request that ran out of time
     * fails every table.
     */
    private Map<TablePath, CompletableFuture<TableInfo>> tableInfos(List<TablePath> tables, Deadline deadline) {
        Map<TablePath, CompletableFuture<TableInfo>> infos = new LinkedHashMap<>();
        try {
            deadline.await(fluss.tableInfosFromCoordinator(tables), "Fluss (metadata of " + tables.size() + " tables)")
                    .forEach((path, info) -> infos.put(path, CompletableFuture.completedFuture(info)));
        } catch (ExecutionException e) {
            // Fluss 0.9.1 reports a table that does not exist as an unknown server error failing the whole request
            // ("Failed to get tables"); asked on its own, each table gets its own answer.
            LOG.debug("The metadata request of a status refresh failed; asking for each table's info", e);
        } catch (Exception e) {
            tables.forEach(path -> infos.put(path, CompletableFuture.failedFuture(e)));
            return infos;
        }
        Window window = new Window(deadline);
        for (TablePath path : tables) {
            infos.computeIfAbsent(path, p -> window.send(() -> fluss.tableInfo(p)));
        }
        return infos;
    }

    /**
     * Keeps at most {@link #IN_FLIGHT} requests of a refresh in flight: a Fluss server stops reading a connection
     * whose requests queue up, which would hold up every other call on it. A request that cannot be sent before the
     * deadline fails.
     */
    private static final class Window {
        private final Semaphore permits = new Semaphore(IN_FLIGHT);
        private final Deadline deadline;

        Window(Deadline deadline) {
            this.deadline = deadline;
        }

        <T> CompletableFuture<T> send(Supplier<CompletableFuture<T>> request) {
            try {
                if (!permits.tryAcquire(deadline.remaining().toNanos(), TimeUnit.NANOSECONDS)) {
                    return CompletableFuture.failedFuture(new TimeoutException(
                            "Fluss did not answer the refresh's earlier requests in time to send this one"));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return CompletableFuture.failedFuture(e);
            }
            CompletableFuture<T> sent;
            try {
                sent = request.get();
            } catch (RuntimeException e) {
                permits.release();
                return CompletableFuture.failedFuture(e);
            }
            return sent.whenComplete((answer, error) -> permits.release());
        }
    }

    /** A failed observation, with the remote call's own error rather than the wrapper of its future. */
    private static CompletableFuture<TableObservation> failed(Exception e) {
        return CompletableFuture.failedFuture(e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e);
    }

    /** Every bucket's head, with the append time of its record at the tiered offset where not known yet. */
    private Map<TableBucket, BucketHeads.Head> readHeads(Iterable<LakeTable> tables, Deadline deadline) {
        List<BucketHeads.Ask> asks = new ArrayList<>();
        for (LakeTable table : tables) {
            for (TableBucket bucket : table.partitionOf().keySet()) {
                long tiered = table.tiered(bucket);
                asks.add(new BucketHeads.Ask(table.info().getTablePath(), bucket, Math.max(tiered, 0),
                        cachedRecordTime(bucket, tiered) == null));
            }
        }
        if (asks.isEmpty()) {
            return Map.of();
        }
        try {
            return fluss.bucketHeads(asks, deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        }
    }

    /**
     * The table's observation from its buckets' heads; completed at once unless the lake snapshot's commit time is to
     * be read, or a pending record is to be read on its own.
     */
    private CompletableFuture<TableObservation> observe(
            LakeTable table, Map<TableBucket, BucketHeads.Head> heads, Deadline deadline, Executor pool) {
        TablePath path = table.info().getTablePath();
        List<BucketCheckpoint> buckets = new ArrayList<>();
        Instant oldest = null;
        boolean readAlone = false;
        for (Map.Entry<TableBucket, String> bucket : table.partitionOf().entrySet()) {
            BucketHeads.Head head = heads.get(bucket.getKey());
            if (head == null || head.error() != null) {
                // E.g. no leader known yet for a partition the client has not seen: the table's own calls may
                // still answer (they fail at the same deadline when the server is silent).
                LOG.debug("Reading {} bucket {} alone: {}", path, bucket.getKey().getBucket(),
                        head == null ? "not read" : head.error());
                readAlone = true;
                continue;
            }
            long tiered = table.tiered(bucket.getKey());
            if (head.highWatermark() < 0) {
                readAlone = true;
                continue;
            }
            buckets.add(new BucketCheckpoint(bucket.getValue(), bucket.getKey().getBucket(), tiered, head.highWatermark()));
            if (head.highWatermark() > Math.max(tiered, 0)) {
                Instant at = cachedRecordTime(bucket.getKey(), tiered);
                if (at == null && head.appendedAt() != null) {
                    at = Instant.ofEpochMilli(head.appendedAt());
                    recordTimeAtOffset.put(bucket.getKey(), Map.entry(tiered, at));
                }
                if (at == null) {
                    readAlone = true;
                } else {
                    oldest = min(oldest, at);
                }
            }
        }
        LakeSnapshot lake = table.lake();
        Instant committed = lake == null ? null : cachedCommitTime(table.info().getTableId(), lake.getSnapshotId());
        if (!readAlone && (lake == null || committed != null)) {
            return CompletableFuture.completedFuture(observation(table, committed, buckets, oldest));
        }
        boolean alone = readAlone;
        Instant fromHeads = oldest;
        return CompletableFuture.supplyAsync(() -> {
            Instant committedAt = lake == null ? null : paimonCommitTime(table.info(), lake.getSnapshotId(), deadline);
            if (!alone) {
                return observation(table, committedAt, buckets, fromHeads);
            }
            try {
                return observeAlone(table, committedAt, deadline);
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, pool);
    }

    private TableObservation observation(
            LakeTable table, @Nullable Instant committedAt, List<BucketCheckpoint> buckets, @Nullable Instant oldest) {
        TableInfo info = table.info();
        return new TableObservation(info.getTablePath(), info.getTableId(), true,
                info.getTableConfig().getDataLakeFreshness(), table.lake() == null ? null : table.lake().getSnapshotId(),
                committedAt, buckets, oldest, clock.instant());
    }

    /**
     * Observes a table whose first untiered record is not in the leader's local log: end offsets listed, and the
     * record read with a log scanner, which also reads remote storage.
     */
    private TableObservation observeAlone(LakeTable table, @Nullable Instant committedAt, Deadline deadline)
            throws Exception {
        TableInfo info = table.info();
        Map<TableBucket, Long> ends = endOffsets(info, table.partitionOf(), deadline);
        List<BucketCheckpoint> buckets = new ArrayList<>();
        List<TableBucket> pending = new ArrayList<>();
        for (Map.Entry<TableBucket, Long> end : ends.entrySet()) {
            long tiered = table.tiered(end.getKey());
            buckets.add(new BucketCheckpoint(table.partitionOf().get(end.getKey()), end.getKey().getBucket(), tiered,
                    end.getValue()));
            if (end.getValue() > Math.max(tiered, 0)) {
                pending.add(end.getKey());
            }
        }
        Instant oldest = pending.isEmpty() ? null : oldestPendingRecord(table, pending, deadline);
        return observation(table, committedAt, buckets, oldest);
    }

    private Map<TableBucket, Long> endOffsets(TableInfo info, Map<TableBucket, String> partitionOf, Deadline deadline)
            throws Exception {
        String what = "Fluss (end offsets of " + info.getTablePath() + ")";
        Map<String, Long> partitionIds = new HashMap<>();
        partitionOf.forEach((bucket, name) -> {
            if (name != null) {
                partitionIds.put(name, bucket.getPartitionId());
            }
        });
        List<Integer> buckets = IntStream.range(0, info.getNumBuckets()).boxed().collect(Collectors.toList());
        Map<TableBucket, Long> ends = new HashMap<>();
        if (!info.isPartitioned()) {
            deadline.await(fluss.latestOffsets(info.getTablePath(), null, buckets), what)
                    .forEach((b, o) -> ends.put(new TableBucket(info.getTableId(), b), o));
            return ends;
        }
        for (Map.Entry<String, Long> partition : partitionIds.entrySet()) {
            deadline.await(fluss.latestOffsets(info.getTablePath(), partition.getKey(), buckets), what)
                    .forEach((b, o) -> ends.put(new TableBucket(info.getTableId(), partition.getValue(), b), o));
        }
        return ends;
    }

    /**
     * The coordinator's answer: the table's readable lake snapshot, null when it has none; kept if {@code keep}, and
     * when there is no answer, nothing kept of the table is used again.
     */
    @Nullable
    private LakeSnapshot readable(CompletableFuture<LakeSnapshot> asked, TableInfo info, long roundsEnded, boolean keep,
            Deadline deadline) throws Exception {
        LakeSnapshot lake;
        try {
            lake = deadline.await(asked, "Fluss (lake snapshot of " + info.getTablePath() + ")");
        } catch (Exception e) {
            if (!(e instanceof ExecutionException && e.getCause() instanceof LakeTableSnapshotNotExistException)) {
                if (keep) {
                    lakeSnapshots.failed(info.getTableId());
                }
                throw e;
            }
            lake = null;
        }
        if (keep) {
            lakeSnapshots.answered(info.getTableId(), lake, roundsEnded);
        }
        return lake;
    }

    @Nullable
    private Instant cachedRecordTime(TableBucket bucket, long tieredOffset) {
        Map.Entry<Long, Instant> cached = recordTimeAtOffset.get(bucket);
        return cached != null && cached.getKey() == tieredOffset ? cached.getValue() : null;
    }

    @Nullable
    private Instant cachedCommitTime(long tableId, long snapshotId) {
        Map.Entry<Long, Instant> cached = commitTimeOfSnapshot.get(tableId);
        return cached != null && cached.getKey() == snapshotId ? cached.getValue() : null;
    }

    @Nullable
    private Instant paimonCommitTime(TableInfo info, long snapshotId, Deadline deadline) {
        TablePath path = info.getTablePath();
        try {
            Snapshot snapshot = deadline.call(
                    () -> lakeTables.load(path).snapshotManager().tryGetSnapshot(snapshotId), "The lake (snapshot of " + path + ")");
            Instant committed = Instant.ofEpochMilli(snapshot.timeMillis());
            commitTimeOfSnapshot.put(info.getTableId(), Map.entry(snapshotId, committed));
            return committed;
        } catch (Exception e) {
            // Expired or unreadable: the checkpoint age then falls back to when the lag was first seen.
            return null;
        }
    }

    /** The earliest timestamp among the first untiered record of each pending bucket, read with a log scanner. */
    @Nullable
    private Instant oldestPendingRecord(LakeTable lakeTable, List<TableBucket> pending, Deadline deadline)
            throws Exception {
        Map<TableBucket, Long> toProbe = new HashMap<>();
        Instant oldest = null;
        for (TableBucket bucket : pending) {
            long offset = lakeTable.tiered(bucket);
            Instant cached = cachedRecordTime(bucket, offset);
            if (cached != null) {
                oldest = min(oldest, cached);
            } else {
                toProbe.put(bucket, offset);
            }
        }
        if (toProbe.isEmpty()) {
            return oldest;
        }
        TablePath path = lakeTable.info().getTablePath();
        for (Map.Entry<TableBucket, Instant> found : fluss.appendTimes(path, toProbe, PROBE_TIMEOUT, deadline).entrySet()) {
            recordTimeAtOffset.put(found.getKey(), Map.entry(toProbe.get(found.getKey()), found.getValue()));
            oldest = min(oldest, found.getValue());
        }
        return oldest;
    }

    private static Instant min(@Nullable Instant a, Instant b) {
        return a == null || b.isBefore(a) ? b : a;
    }
}
