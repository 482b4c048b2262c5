package io.lakesync.bench.cluster;

import io.lakesync.bench.data.BenchSchema;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.local.LocalFlussCluster;
import io.lakesync.local.ServerListeners;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.IntStream;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.client.metadata.MetadataUpdater;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.server.zk.ZooKeeperClient;
import org.apache.fluss.server.zk.ZooKeeperUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one embedded Fluss cluster (with its Paimon warehouse) every contender of a benchmark runs against, and
 * what the driver does with it: create, queue and park tables, compare lake offsets with Fluss end offsets, drop.
 *
 * <p>Queueing a table for tiering without waiting a whole freshness interval: a table is created with a
 * {@link #QUEUE_FRESHNESS} of one second, so the coordinator moves it to its pending queue about a second later
 * (no tiering service is running while the data is written, so nobody takes it); {@link #queue} then raises
 * the freshness to the run's value, which the coordinator only stores for a pending table and which every
 * tiering service reads as its round cap and interval between rounds.
 *
 * <p>Keeping a table from a tiering service that is already running (warm mode: the timed tables wait while the
 * contender warms up): such a table is {@linkplain #createParkedTable created parked}, with a freshness of
 * {@link #PARKED_FRESHNESS}, so the coordinator schedules it for much later. Lowering the freshness of a scheduled
 * table makes the coordinator reschedule it one (new) freshness after its creation; {@link #queue} therefore waits
 * until a parked table is one run freshness old, and the table goes to the pending queue at once, with the run's
 * freshness already in place (the short-freshness route would let the running contender take it with a 1 s
 * freshness as its round cap).
 */
public final class BenchCluster implements AutoCloseable {

    public static final Duration QUEUE_FRESHNESS = Duration.ofSeconds(1);
    /** Freshness of a parked table: far beyond any run, so the coordinator keeps it scheduled until released. */
    public static final Duration PARKED_FRESHNESS = Duration.ofDays(7);
    /** How much older than the run's freshness a parked table must be so the coordinator queues it at once. */
    private static final Duration RELEASE_MARGIN = Duration.ofMillis(500);
    /** The queue freshness plus the coordinator timer's one-second tick plus margin. */
    private static final Duration QUEUE_SETTLE = Duration.ofSeconds(3);

    private static final int CREATE_ATTEMPTS = 3;
    private static final Duration LEADER_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration LEADER_POLL = Duration.ofMillis(50);
    private static final Duration CONNECTION_CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private static final Logger LOG = LoggerFactory.getLogger(BenchCluster.class);

    private final LocalFlussCluster cluster;
    private final Connection connection;
    private final Admin admin;
    private final LakeTables lake;
    /** The cluster's ZooKeeper, read as the coordinator reads it: see {@link #registeredLakeOffsets}. */
    private final ZooKeeperClient zooKeeper;
    private volatile Throwable zooKeeperFailure;
    private final Map<TablePath, Long> createdAtNanos = new HashMap<>();
    private final Set<TablePath> parked = new HashSet<>();

    private BenchCluster(LocalFlussCluster cluster) {
        this.cluster = cluster;
        this.connection = ConnectionFactory.createConnection(cluster.clientConfiguration());
        this.admin = connection.getAdmin();
        this.lake = new LakeTables(cluster.lakeCatalogOptions());
        Configuration zooKeeperConf = new Configuration();
        zooKeeperConf.setString(ConfigOptions.ZOOKEEPER_ADDRESS.key(), "127.0.0.1:" + cluster.zookeeperPort());
        this.zooKeeper = ZooKeeperUtils.startZookeeperClient(zooKeeperConf, error -> zooKeeperFailure = error);
    }

    /** Starts the cluster under {@code dataDir} on free ports. */
    public static BenchCluster start(Path dataDir, Duration kvSnapshotInterval) throws Exception {
        return start(dataDir, kvSnapshotInterval, Map.of(), ServerListeners.NONE);
    }

    /**
     * Starts the cluster as {@link #start(Path, Duration)} does, with {@code settings} added to the local stack's
     * configuration (its ports, a lake of its own: {@code datalake.paimon.*}) and {@code listeners} on each server.
     */
    public static BenchCluster start(Path dataDir, Duration kvSnapshotInterval, Map<String, String> settings,
            ServerListeners listeners) throws Exception {
        Map<String, String> config = new LinkedHashMap<>();
        config.put(LakeSyncOptions.DATA_DIR.key(), dataDir.toString());
        config.put(LakeSyncOptions.LOCAL_COORDINATOR_PORT.key(), "0");
        config.put(LakeSyncOptions.LOCAL_KV_SNAPSHOT_INTERVAL.key(), kvSnapshotInterval.toMillis() + " ms");
        config.putAll(settings);
        LocalFlussCluster cluster =
                LocalFlussCluster.start(LakeSyncConfig.fromMap(config, "benchmark"), Map.of(), listeners);
        try {
            return new BenchCluster(cluster);
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    public Connection connection() {
        return connection;
    }

    /** The cluster's servers to stop and start, for the campaign's node faults. */
    public FlussNodes nodes() {
        return FlussNodes.of(cluster::tabletServerCount, cluster::stopTabletServer,
                cluster::startTabletServer, cluster::tabletServerRunning, cluster::restartCoordinator);
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** Paimon catalog options, prefix {@code datalake.paimon.} stripped. */
    public Map<String, String> lakeCatalogOptions() {
        return cluster.lakeCatalogOptions();
    }

    public LakeTables lake() {
        return lake;
    }

    /**
     * Creates a lake-enabled table that the coordinator queues for tiering about a second later.
     *
     * <p>Fluss 0.9.1 can leave a bucket of a table created right after many drops without a leader for good, and
     * a writer then waits forever; such a table is dropped and created again (at most {@value #CREATE_ATTEMPTS}
     * times).
     */
    public void createTable(TablePath path, boolean primaryKey, int buckets) throws Exception {
        createTable(path, BenchSchema.descriptor(primaryKey, buckets, QUEUE_FRESHNESS));
    }

    /**
     * Creates a lake-enabled table that no tiering service gets before {@link #queue} releases it (see the class
     * comment).
     */
    public void createParkedTable(TablePath path, boolean primaryKey, int buckets) throws Exception {
        createTable(path, BenchSchema.descriptor(primaryKey, buckets, PARKED_FRESHNESS));
        parked.add(path);
    }

    /**
     * Creates a table as {@link #createTable(TablePath, boolean, int)} does, from any descriptor; the buckets of
     * a partitioned table exist only per partition, so there is no leader to wait for.
     */
    public void createTable(TablePath path, TableDescriptor descriptor) throws Exception {
        admin.createDatabase(path.getDatabaseName(), DatabaseDescriptor.EMPTY, true).get();
        int buckets = descriptor.getTableDistribution().flatMap(d -> d.getBucketCount()).orElse(1);
        for (int attempt = 1; ; attempt++) {
            admin.createTable(path, descriptor, false).get();
            createdAtNanos.put(path, System.nanoTime());
            if (descriptor.isPartitioned() || awaitLeaders(path, buckets)) {
                return;
            }
            if (attempt == CREATE_ATTEMPTS) {
                throw new IllegalStateException("Fluss left a bucket of " + path + " without a leader "
                        + CREATE_ATTEMPTS + " times in a row; the benchmark cannot write its data.");
            }
            admin.dropTable(path, true).get();
        }
    }

    private boolean awaitLeaders(TablePath path, int buckets) throws Exception {
        long tableId = admin.getTableInfo(path).get().getTableId();
        MetadataUpdater metadata = ((FlussConnection) connection).getMetadataUpdater();
        long deadline = System.nanoTime() + LEADER_TIMEOUT.toNanos();
        while (true) {
            metadata.updateTableOrPartitionMetadata(path, null);
            boolean allLed = IntStream.range(0, buckets)
                    .mapToObj(b -> metadata.getBucketLocation(new TableBucket(tableId, b)))
                    .allMatch(location -> location.isPresent() && location.get().getLeader() != null);
            if (allLed) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(LEADER_POLL.toMillis());
        }
    }

    /**
     * Once the tables are in the coordinator's pending queue, sets their freshness to {@code freshness}; returns
     * when every table is queued with it. Parked tables are released: once they are one {@code freshness} old,
     * their freshness is lowered to it, which queues them at once.
     */
    public void queue(List<TablePath> paths, Duration freshness) throws Exception {
        queue(paths, freshness, () -> {});
    }

    /**
     * As {@link #queue(List, Duration)}, running {@code beforeQueueing} once the wait is over, just before the
     * first table can reach the coordinator's pending queue.
     */
    public void queue(List<TablePath> paths, Duration freshness, Runnable beforeQueueing) throws Exception {
        boolean release = paths.stream().anyMatch(parked::contains);
        if (release && !parked.containsAll(paths)) {
            throw new IllegalArgumentException("Parked and unparked tables cannot be queued together: " + paths);
        }
        long newest = paths.stream().mapToLong(createdAtNanos::get).max().orElse(System.nanoTime());
        Duration settle = release ? freshness.plus(RELEASE_MARGIN) : QUEUE_SETTLE;
        long waitNanos = newest + settle.toNanos() - System.nanoTime();
        if (waitNanos > 0) {
            // The coordinator does not expose the queue; its timer is the only clock to go by.
            Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
        }
        parked.removeAll(paths);
        beforeQueueing.run();
        if (!release && freshness.equals(QUEUE_FRESHNESS)) {
            return;
        }
        setFreshness(paths, freshness);
    }

    private void setFreshness(List<TablePath> paths, Duration freshness) throws Exception {
        List<CompletableFuture<Void>> altered = new ArrayList<>();
        for (TablePath path : paths) {
            altered.add(admin.alterTable(
                    path,
                    List.of(TableChange.set("table.datalake.freshness", BenchSchema.freshnessValue(freshness))),
                    false));
        }
        CompletableFuture.allOf(altered.toArray(new CompletableFuture[0])).get();
    }

    /** Fluss end offsets (high watermarks) of every bucket of a table. */
    public CompletableFuture<Map<Integer, Long>> endOffsets(TablePath path, int buckets) {
        List<Integer> ids = IntStream.range(0, buckets).boxed().toList();
        return admin.listOffsets(path, ids, new OffsetSpec.LatestSpec()).all();
    }

    /**
     * Tiered end offsets per bucket of an unpartitioned table, as the coordinator registered them: its latest lake
     * snapshot, read from the table's lake node in ZooKeeper and the offsets file it names, which is what the
     * coordinator reads to answer {@link #lakeOffsets}; empty when there is none. One ZooKeeper read where the
     * coordinator's answer takes four, and nothing queued at the coordinator ahead of a contender's commits: the
     * end-of-backfill wait reads this while the contender is timed.
     */
    public Map<Integer, Long> registeredLakeOffsets(long tableId) throws Exception {
        if (zooKeeperFailure != null) {
            throw new IllegalStateException("The benchmark's ZooKeeper client failed", zooKeeperFailure);
        }
        return zooKeeper.getLakeTableSnapshot(tableId, null)
                .map(snapshot -> byBucket(snapshot.getBucketLogEndOffset()))
                .orElse(Map.of());
    }

    /** The id Fluss gave the table. */
    public long tableId(TablePath path) throws Exception {
        return admin.getTableInfo(path).get().getTableId();
    }

    /** Tiered end offsets per bucket from the coordinator's latest lake snapshot; empty when there is none. */
    public CompletableFuture<Map<Integer, Long>> lakeOffsets(TablePath path) {
        return lakeBucketOffsets(path).thenApply(BenchCluster::byBucket);
    }

    /** As {@link #lakeOffsets}, keyed by {@link TableBucket}: partitioned tables included. */
    public CompletableFuture<Map<TableBucket, Long>> lakeBucketOffsets(TablePath path) {
        return admin.getLatestLakeSnapshot(path)
                .handle((snapshot, error) -> {
                    if (error != null) {
                        if (rootCause(error) instanceof LakeTableSnapshotNotExistException) {
                            return Map.of();
                        }
                        throw new IllegalStateException(
                                "Cannot read the lake snapshot of " + path + ": " + rootCause(error), error);
                    }
                    return snapshot.getTableBucketsOffset();
                });
    }

    /** Latest KV snapshot log offsets per bucket of a primary-key table (buckets without one are absent). */
    public Map<Integer, Long> kvSnapshotOffsets(TablePath path, int buckets) throws Exception {
        KvSnapshots snapshots = admin.getLatestKvSnapshots(path).get();
        Map<Integer, Long> offsets = new HashMap<>();
        for (int b = 0; b < buckets; b++) {
            int bucket = b;
            snapshots.getLogOffset(bucket).ifPresent(offset -> offsets.put(bucket, offset));
        }
        return offsets;
    }

    /**
     * Parks tables that were tiered: the coordinator schedules their next round one {@link #PARKED_FRESHNESS}
     * after their last, so no tiering service gets them again in this run (a round finishing later is scheduled
     * with it too). Returns once every table has it.
     */
    public void park(List<TablePath> paths) throws Exception {
        setFreshness(paths, PARKED_FRESHNESS);
    }

    /** Drops the Fluss table and its Paimon table (Fluss itself never drops the lake table). */
    public void drop(TablePath path) throws Exception {
        admin.dropTable(path, true).get();
        lake.drop(path);
        createdAtNanos.remove(path);
        parked.remove(path);
    }

    @Override
    public void close() throws Exception {
        try (AutoCloseable c1 = cluster; AutoCloseable c2 = this::closeConnection; AutoCloseable c3 = lake;
                AutoCloseable c4 = zooKeeper) {
            // closes ZooKeeper's client, lake, connection, then cluster
        }
    }

    /**
     * Closes the client connection, waiting at most {@link #CONNECTION_CLOSE_TIMEOUT}: Fluss's writer waits for
     * ever for rows it cannot deliver (a bucket left without a leader), and the cluster must still stop.
     */
    private void closeConnection() throws InterruptedException {
        Thread closing = new Thread(() -> {
            try {
                connection.close();
            } catch (Exception e) {
                LOG.warn("Closing the Fluss client failed", e);
            }
        }, "bench-connection-close");
        closing.setDaemon(true);
        closing.start();
        closing.join(CONNECTION_CLOSE_TIMEOUT.toMillis());
        if (closing.isAlive()) {
            LOG.warn("The Fluss client did not close within {} (its writer holds rows it cannot deliver); stopping the "
                    + "cluster anyway", CONNECTION_CLOSE_TIMEOUT);
        }
    }

    private static Map<Integer, Long> byBucket(Map<TableBucket, Long> bucketOffsets) {
        Map<Integer, Long> offsets = new HashMap<>();
        for (Map.Entry<TableBucket, Long> e : bucketOffsets.entrySet()) {
            offsets.put(e.getKey().getBucket(), e.getValue());
        }
        return offsets;
    }

    private static Throwable rootCause(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof ExecutionException || cause instanceof java.util.concurrent.CompletionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
