package io.lakesync.fluss;

import io.lakesync.fluss.tiering.FlussTieringCoordinator;
import io.lakesync.fluss.tiering.TieringCoordinator;
import java.io.FileNotFoundException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.client.table.FlussTable;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.cluster.ServerNode;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.config.cluster.ConfigEntry;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.rpc.messages.MetadataRequest;
import org.apache.fluss.rpc.messages.PbTableMetadata;

/**
 * The one way lakesync talks to a Fluss cluster outside the tiering protocol's own RPCs: table and partition
 * metadata, lake and KV snapshots, offsets, DDL, cluster configuration and the tables the data path reads and
 * writes. One per process, shared by the engine, status, switches, maintenance and the commands.
 *
 * <p>One deadline policy: every call answers within {@link #callTimeout()} or fails with a
 * {@link TimeoutException} naming the call and the budget. The Fluss 0.9.1 client has no timeout of its own on
 * most calls, so a server that accepts a connection and never answers would otherwise hold a caller for ever.
 * Callers that share a tighter budget over many calls (a status refresh) wait with their own {@link Deadline}.
 *
 * <p>Table info and high watermarks take the fast paths of {@link TableInfos} and {@link LatestOffsets} on a
 * direct Fluss connection, and the plain {@link Admin} calls otherwise.
 */
public final class FlussClient implements AutoCloseable {

    /**
     * Bigger fetches and polls than the client's interactive defaults (500 records, 1 MB per bucket), for bulk
     * reading; a user's own {@code fluss.*} settings win.
     */
    static final Map<String, String> BULK_READ_DEFAULTS = Map.of(
            ConfigOptions.CLIENT_SCANNER_LOG_MAX_POLL_RECORDS.key(), "8192",
            ConfigOptions.CLIENT_SCANNER_LOG_FETCH_MAX_BYTES_FOR_BUCKET.key(), "8mb",
            ConfigOptions.CLIENT_SCANNER_LOG_FETCH_MAX_BYTES.key(), "64mb");

    private final Connection connection;
    private final boolean owned;
    private final Duration callTimeout;
    private final Admin admin;
    private final @Nullable TableInfos tableInfos;
    private final @Nullable LatestOffsets latestOffsets;

    private FlussClient(Connection connection, boolean owned, Duration callTimeout) {
        this.connection = connection;
        this.owned = owned;
        this.callTimeout = callTimeout;
        this.admin = connection.getAdmin();
        this.latestOffsets = LatestOffsets.of(connection);
        this.tableInfos = latestOffsets == null ? null : new TableInfos(connection);
    }

    /**
     * A long-lived client of a service: a {@link ReconnectingConnection} that follows servers that move, probed
     * within {@code probeTimeout}; calls answer within {@link Deadline#ROUND_REQUEST}. Returns even when the cluster
     * cannot be reached yet (calls then fail until it can).
     */
    public static FlussClient connect(Configuration conf, Duration probeTimeout) {
        return new FlussClient(
                ReconnectingConnection.open(withBulkReadDefaults(conf), ReconnectingConnection.DEFAULT_CHECK_INTERVAL,
                        probeTimeout),
                true,
                Deadline.ROUND_REQUEST);
    }

    /** {@link #connect(Configuration, Duration)} with the connection's default probe timeout. */
    public static FlussClient connect(Configuration conf) {
        return connect(conf, ReconnectingConnection.DEFAULT_CALL_TIMEOUT);
    }

    /** What one call of a command may take. */
    public static final Duration COMMAND_CALL_TIMEOUT = Duration.ofSeconds(30);

    /** {@link #forCommand(Configuration, Duration)} with {@link #COMMAND_CALL_TIMEOUT}. */
    public static FlussClient forCommand(Configuration conf) {
        return forCommand(conf, COMMAND_CALL_TIMEOUT);
    }

    /** A client of a command that runs once and ends (verify, migrate, the demo): a plain connection. */
    public static FlussClient forCommand(Configuration conf, Duration callTimeout) {
        return new FlussClient(ConnectionFactory.createConnection(withBulkReadDefaults(conf)), true, callTimeout);
    }

    /** A client over {@code connection}, which the caller keeps and closes. */
    public static FlussClient over(Connection connection, Duration callTimeout) {
        return new FlussClient(connection, false, callTimeout);
    }

    private static Configuration withBulkReadDefaults(Configuration conf) {
        Configuration withDefaults = new Configuration(conf);
        BULK_READ_DEFAULTS.forEach((key, value) -> {
            if (!withDefaults.containsKey(key)) {
                withDefaults.setString(key, value);
            }
        });
        return withDefaults;
    }

    /** What one call may take. */
    public Duration callTimeout() {
        return callTimeout;
    }

    /**
     * The tablet servers the coordinator lists that did not answer the connection's last probe, as one sentence;
     * null when all answered (or the connection is not one that probes).
     */
    public @Nullable String silentTabletServers() {
        return connection instanceof ReconnectingConnection reconnecting ? reconnecting.silentTabletServers() : null;
    }

    /** The coordinator's side of the lake-tiering protocol, on this client's connection. */
    public TieringCoordinator tieringCoordinator() {
        return FlussTieringCoordinator.of(connection);
    }

    // ---- metadata ----

    public CompletableFuture<TableInfo> tableInfo(TablePath path) {
        return bounded(() -> tableInfos != null ? tableInfos.get(path) : admin.getTableInfo(path),
                "the table info of " + path);
    }

    public CompletableFuture<Boolean> tableExists(TablePath path) {
        return bounded(() -> admin.tableExists(path), "whether " + path + " exists");
    }

    public CompletableFuture<List<String>> databases() {
        return bounded(() -> admin.listDatabases(), "the list of databases");
    }

    public CompletableFuture<List<String>> tables(String database) {
        return bounded(() -> admin.listTables(database), "the tables of database " + database);
    }

    /**
     * Every table of every database, in database order; one database after the other, as a server stops reading a
     * connection with many requests queued.
     */
    public CompletableFuture<List<TablePath>> allTables() {
        return databases().thenCompose(databases -> {
            CompletableFuture<List<TablePath>> paths = CompletableFuture.completedFuture(new ArrayList<>());
            for (String database : databases) {
                paths = paths.thenCompose(listed -> tables(database).thenApply(names -> {
                    names.forEach(table -> listed.add(TablePath.of(database, table)));
                    return listed;
                }));
            }
            return paths;
        });
    }

    /**
     * The info of each of {@code tables} from one metadata request to the coordinator, which answers from the table
     * infos it keeps in memory (a tablet server reads each from ZooKeeper). Fluss 0.9.1 fails the whole request when
     * one of them does not exist.
     */
    public CompletableFuture<Map<TablePath, TableInfo>> tableInfosFromCoordinator(Collection<TablePath> tables) {
        MetadataRequest request = new MetadataRequest();
        tables.forEach(path -> request.addTablePath()
                .setDatabaseName(path.getDatabaseName())
                .setTableName(path.getTableName()));
        return bounded(() -> BucketHeads.metadataOf(connection).newCoordinatorServerClient().metadata(request),
                "the metadata of " + tables.size() + " tables").thenApply(response -> {
            Map<TablePath, TableInfo> infos = new LinkedHashMap<>();
            for (PbTableMetadata table : response.getTableMetadatasList()) {
                TablePath path = TablePath.of(table.getTablePath().getDatabaseName(), table.getTablePath().getTableName());
                infos.put(path, TableInfo.of(path, table.getTableId(), table.getSchemaId(),
                        TableDescriptor.fromJsonBytes(table.getTableJson()), table.getCreatedTime(),
                        table.getModifiedTime()));
            }
            return infos;
        });
    }

    public CompletableFuture<List<PartitionInfo>> partitions(TablePath path) {
        return bounded(() -> admin.listPartitionInfos(path), "the partitions of " + path);
    }

    public CompletableFuture<List<ServerNode>> serverNodes() {
        return bounded(() -> startedAside(admin::getServerNodes), "the list of servers");
    }

    /** The cluster's configuration entries that have a value. */
    public CompletableFuture<Map<String, String>> clusterConfigs() {
        return bounded(() -> admin.describeClusterConfigs(), "the cluster configuration").thenApply(entries -> {
            Map<String, String> values = new TreeMap<>();
            for (ConfigEntry entry : entries) {
                if (entry.value() != null) {
                    values.put(entry.key(), entry.value());
                }
            }
            return values;
        });
    }

    // ---- snapshots and offsets ----

    /** The lake snapshot the coordinator last registered for the table; fails when it holds none. */
    public CompletableFuture<LakeSnapshot> latestLakeSnapshot(TablePath path) {
        return askedAgainWhenDiscarded(
                () -> bounded(() -> admin.getLatestLakeSnapshot(path), "the latest lake snapshot of " + path),
                LAKE_SNAPSHOT_ATTEMPTS);
    }

    /** The newest lake snapshot a union read may use; fails when there is none. */
    public CompletableFuture<LakeSnapshot> readableLakeSnapshot(TablePath path) {
        return askedAgainWhenDiscarded(
                () -> bounded(() -> admin.getReadableLakeSnapshot(path), "the readable lake snapshot of " + path),
                LAKE_SNAPSHOT_ATTEMPTS);
    }

    /** How often a lake snapshot is asked for when its offsets file was discarded under the read. */
    static final int LAKE_SNAPSHOT_ATTEMPTS = 3;

    /**
     * Fluss 0.9.1 reads a lake snapshot in two steps, the table's entry in ZooKeeper and then the offsets file the
     * entry names, while a registration replaces the entry and then deletes the files of the snapshots it drops. A
     * read between the two fails ("Failed to get lake table snapshot", FileNotFoundException) though the table holds
     * a newer snapshot; asked again, the coordinator reads the new entry. An offsets file gone for good fails every
     * attempt, and the caller gets that failure.
     */
    private static CompletableFuture<LakeSnapshot> askedAgainWhenDiscarded(
            Supplier<CompletableFuture<LakeSnapshot>> request, int attempts) {
        return request.get().exceptionallyCompose(failure -> attempts > 1 && offsetsFileDiscarded(failure)
                ? askedAgainWhenDiscarded(request, attempts - 1)
                : CompletableFuture.failedFuture(failure));
    }

    private static boolean offsetsFileDiscarded(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause()
                : failure;
        return RegisteredSnapshot.isUnreadableAnswer(cause)
                && cause.getMessage().contains(FileNotFoundException.class.getSimpleName());
    }

    /** The latest KV snapshots of a table, or of its partition {@code partitionName} when not null. */
    public CompletableFuture<KvSnapshots> latestKvSnapshots(TablePath path, @Nullable String partitionName) {
        return bounded(() -> partitionName == null
                        ? admin.getLatestKvSnapshots(path)
                        : admin.getLatestKvSnapshots(path, partitionName),
                "the KV snapshots of " + path);
    }

    /** The latest offset (high watermark) of each of {@code buckets} of the table, or of its partition when named. */
    public CompletableFuture<Map<Integer, Long>> latestOffsets(
            TablePath path, @Nullable String partitionName, Collection<Integer> buckets) {
        return offsets(path, partitionName, buckets, new OffsetSpec.LatestSpec(), "latest");
    }

    /** The earliest offset still in Fluss of each of {@code buckets} of the table, or of its partition when named. */
    public CompletableFuture<Map<Integer, Long>> earliestOffsets(
            TablePath path, @Nullable String partitionName, Collection<Integer> buckets) {
        return offsets(path, partitionName, buckets, new OffsetSpec.EarliestSpec(), "earliest");
    }

    /**
     * {@code Admin#listOffsets}, which refreshes metadata synchronously before it returns its future: started on a
     * thread of its own.
     */
    private CompletableFuture<Map<Integer, Long>> offsets(
            TablePath path, @Nullable String partitionName, Collection<Integer> buckets, OffsetSpec spec, String which) {
        String what = "the " + which + " offsets of " + path + (partitionName == null ? "" : " partition " + partitionName);
        return bounded(() -> startedAside(() -> (partitionName == null
                        ? admin.listOffsets(path, buckets, spec)
                        : admin.listOffsets(path, partitionName, buckets, spec)).all()),
                what);
    }

    /**
     * The high watermark of each of {@code buckets} of {@code table} (of {@code partition} when not null): asked of
     * the buckets' leaders directly on a Fluss connection ({@link LatestOffsets}), through the admin otherwise.
     */
    public Map<Integer, Long> highWatermarks(TableInfo table, @Nullable PartitionInfo partition, Collection<Integer> buckets)
            throws Exception {
        if (latestOffsets != null) {
            return latestOffsets.highWatermarks(
                    table.getTablePath(), table.getTableId(), partition == null ? null : partition.getPartitionId(), buckets);
        }
        return latestOffsets(table.getTablePath(), partition == null ? null : partition.getPartitionName(), buckets)
                .get();
    }

    /** See {@link LatestOffsets#unpartitionedHighWatermarks}; empty without a Fluss connection. */
    public Optional<Map<Integer, Long>> unpartitionedHighWatermarks(TablePath path, long tableId) throws Exception {
        return latestOffsets == null ? Optional.empty() : latestOffsets.unpartitionedHighWatermarks(path, tableId);
    }

    /** See {@link BucketHeads#read}. */
    public Map<TableBucket, BucketHeads.Head> bucketHeads(List<BucketHeads.Ask> asks, Deadline deadline)
            throws InterruptedException {
        return BucketHeads.read(connection, asks, deadline);
    }

    // ---- DDL ----

    public CompletableFuture<Void> createDatabase(String database) {
        return bounded(() -> admin.createDatabase(database, DatabaseDescriptor.EMPTY, true),
                "creating database " + database);
    }

    /** Creates the table; fails when it exists. */
    public CompletableFuture<Void> createTable(TablePath path, TableDescriptor descriptor) {
        return bounded(() -> admin.createTable(path, descriptor, false), "creating table " + path);
    }

    /**
     * Creates the table unless a table of that name exists. Not {@code createTable(..., ignoreIfExists)}: Fluss
     * 0.9.1's coordinator creates the lake table before it looks for the Fluss table, so for a lake-enabled table
     * whose Paimon table already holds data (a restart of the demo) that fails with
     * {@code LakeTableAlreadyExistException} although the Fluss table is there.
     */
    public CompletableFuture<Void> createTableIfAbsent(TablePath path, TableDescriptor descriptor) {
        return tableExists(path).thenCompose(exists -> exists
                ? CompletableFuture.<Void>completedFuture(null)
                : createTable(path, descriptor));
    }

    public CompletableFuture<Void> alterTable(TablePath path, List<TableChange> changes) {
        return bounded(() -> admin.alterTable(path, changes, false), "altering table " + path);
    }

    // ---- data ----

    /**
     * Opens the table whose info is {@code info} for reading on the current connection, decoding in that info's
     * schema and without asking for its info again (as {@code Connection#getTable} would); the caller closes it.
     */
    public TableReads reads(TableInfo info) throws Exception {
        Connection current = ReconnectingConnection.currentOf(connection);
        return new TableReads(current instanceof FlussConnection direct
                ? new FlussTable(direct, info.getTablePath(), info)
                : open(info.getTablePath()));
    }

    /** Opens the table for reading in its current schema; the caller closes it. */
    public TableReads reads(TablePath path) throws Exception {
        return new TableReads(open(path));
    }

    /**
     * Opens the table for writing, on a Fluss connection of its own that closes with it; the caller closes it. The
     * writers of one Fluss 0.9.1 connection share a sender, which handles a failed request of one table with the
     * batches of every table it sent to that server (apache/fluss#3772): after a tablet server fails over, writers of
     * several tables on one connection can hang for good or send a corrupt batch.
     */
    public TableWrites writes(TablePath path) throws Exception {
        Connection own = ConnectionFactory.createConnection(connection.getConfiguration());
        try {
            return new TableWrites(open(own, path), own);
        } catch (Exception | Error e) {
            own.close();
            throw e;
        }
    }

    private Table open(TablePath path) throws Exception {
        return open(connection, path);
    }

    private Table open(Connection on, TablePath path) throws Exception {
        return Deadline.in(callTimeout).call(() -> on.getTable(path), "opening table " + path);
    }

    /**
     * When the record at each of {@code offsets} (a negative offset: the bucket's first record) of table {@code path}
     * was appended, read with a log scanner until all are found, {@code limit} passed or {@code deadline} expired. A
     * bucket the scanner answered for without a record, or not at all, is missing from the answer.
     */
    public Map<TableBucket, Instant> appendTimes(
            TablePath path, Map<TableBucket, Long> offsets, Duration limit, Deadline deadline) throws Exception {
        Map<TableBucket, Instant> times = new HashMap<>();
        Map<TableBucket, Long> toFind = new HashMap<>(offsets);
        try (TableReads table = new TableReads(
                        deadline.call(() -> connection.getTable(path), "Fluss (table " + path + ")"));
                LogRows log = table.openLog()) {
            toFind.forEach((bucket, offset) -> log.subscribe(bucket, offset < 0 ? LogScanner.EARLIEST_OFFSET : offset));
            long end = System.nanoTime() + limit.toNanos();
            while (!toFind.isEmpty() && System.nanoTime() < end && !deadline.expired()) {
                Map<TableBucket, List<? extends LogRecord>> records;
                try {
                    records = log.poll(Duration.ofMillis(200));
                } catch (UndecodableRecordException e) {
                    toFind.remove(e.bucket());
                    continue;
                }
                records.forEach((bucket, found) -> {
                    Long offset = toFind.remove(bucket);
                    if (offset != null && !found.isEmpty()) {
                        times.put(bucket, Instant.ofEpochMilli(found.get(0).timestamp()));
                    }
                });
            }
        }
        return times;
    }

    /**
     * The connection itself, for the columnar reader's Arrow fetches only (they use the client's RPC gateways and
     * decode Fluss's Arrow batches, which no call here covers).
     */
    public Connection connectionForArrowReads() {
        return connection;
    }

    /**
     * The call {@code start} starts, failed with a {@link TimeoutException} naming {@code what} when it does not
     * answer in time; a call that fails before it returns its future fails the future.
     */
    private <T> CompletableFuture<T> bounded(Supplier<CompletableFuture<T>> start, String what) {
        CompletableFuture<T> call;
        try {
            call = start.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<T> answer = new CompletableFuture<>();
        call.whenComplete((value, failure) -> {
            if (failure != null) {
                answer.completeExceptionally(failure);
            } else {
                answer.complete(value);
            }
        });
        // orTimeout drops its timer once the answer is in, so answered calls hold nothing until the budget ends.
        return answer.orTimeout(callTimeout.toMillis(), TimeUnit.MILLISECONDS).handle((value, failure) -> {
            if (failure == null) {
                return value;
            }
            if (failure instanceof TimeoutException && !call.isDone()) {
                call.cancel(true);
                throw new CompletionException(
                        new TimeoutException(what + " did not answer within " + callTimeout.toMillis() + " ms"));
            }
            throw failure instanceof CompletionException completion ? completion : new CompletionException(failure);
        });
    }

    /** Starts a client call that blocks before it returns its future (a metadata refresh first) on its own thread. */
    private static <T> CompletableFuture<T> startedAside(Callable<CompletableFuture<T>> start) {
        return CompletableFuture.supplyAsync(() -> {
                    try {
                        return start.call();
                    } catch (Exception e) {
                        throw new CompletionException(e);
                    }
                }, Deadline.blockingCalls())
                .thenCompose(started -> started);
    }

    @Override
    public void close() throws Exception {
        if (owned) {
            connection.close();
        }
    }
}
