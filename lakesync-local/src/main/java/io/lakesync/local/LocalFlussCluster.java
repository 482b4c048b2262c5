package io.lakesync.local;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeCatalogCheck;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.fluss.cluster.TabletServerInfo;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.rpc.RpcServer;
import org.apache.fluss.server.ServerBase;
import org.apache.fluss.server.metadata.ServerMetadataCache;
import org.apache.fluss.server.replica.Replica;
import org.apache.fluss.server.replica.ReplicaManager;
import org.apache.fluss.server.coordinator.CoordinatorServer;
import org.apache.fluss.server.tablet.TabletServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded local stack: a ZooKeeper, a Fluss coordinator and {@code local.tablet-servers} tablet servers (one
 * by default) bound to 127.0.0.1, with a Paimon filesystem warehouse, all under one data folder so a second start
 * resumes every table and row.
 *
 * <p>The lake catalog is a filesystem catalog on {@code data.dir/warehouse} unless the configuration's
 * {@code datalake.paimon.*} options say otherwise (for example a JDBC catalog, {@code metastore = jdbc}); the
 * Fluss servers and {@link #serviceConfig} get the same options, as a production deployment must.
 *
 * <pre>
 * data.dir/
 *   zookeeper/        ZooKeeper snapshots and logs (Fluss metadata, lake offsets)
 *   tablet-server-0/  Fluss log segments and KV stores of tablet server 0 (tablet-server-1/ ... with more)
 *   remote/           Fluss remote data: KV snapshots, tiered log, lake offsets files
 *   warehouse/        the Paimon warehouse (the lake)
 *   s3/               with local.lake = s3 instead: the S3 server's objects, the lake at s3://lake/warehouse
 *   ports.properties  the ports picked for options set to 0, reused by the next start while they are free
 * </pre>
 *
 * Keeping the ports matters: Fluss clients (a lakesync service, writers) cache the servers' addresses, so a
 * restarted stack on the same ports lets them carry on.
 *
 * <p>Faults, for tests and the fault campaign: {@link #stopTabletServer} and {@link #startTabletServer} stop and
 * start one tablet server on its data folder and port (with 3 of them, its buckets' leadership fails over), and
 * {@link #restartCoordinator} restarts the coordinator on its port.
 */
public final class LocalFlussCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalFlussCluster.class);
    private static final String HOST = "127.0.0.1";
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final String S3_BUCKET = "lake";
    /** Replicas per bucket beyond 3 only cost the one machine disk and fetches; Fluss's own default caps there too. */
    private static final int MAX_REPLICATION_FACTOR = 3;

    private final Path dataDir;
    private final Map<String, String> lakeCatalogOptions;
    private final ServerListeners listeners;
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private final List<TabletServerSlot> tabletServers = new ArrayList<>();
    private TestingServer zookeeper;
    /** What every Fluss server of the stack is started with; each adds its listener (and id, data folder). */
    private Configuration serverCommon;
    private int boundCoordinatorPort;
    private CoordinatorServer coordinator;
    private String bootstrapServers;

    /** A tablet server of the stack: its port (0 until first bound) and, while it runs, the server. */
    private static final class TabletServerSlot {
        // Volatile: read without the cluster's lock, which close() holds while its stops log their ports.
        volatile int port;
        volatile TabletServer running;

        TabletServerSlot(int port) {
            this.port = port;
        }
    }

    /** The ports to bind, 0 meaning any free one. */
    private record Ports(int zookeeper, int coordinator, List<Integer> tabletServers) {}

    private LocalFlussCluster(Path dataDir, Map<String, String> lakeCatalogOptions, ServerListeners listeners) {
        this.dataDir = dataDir;
        this.listeners = listeners;
        this.lakeCatalogOptions = Collections.unmodifiableMap(lakeCatalogOptions);
    }

    /** The lake's options: a filesystem catalog on {@code warehouse}, then what the configuration sets. */
    private static Map<String, String> lakeOptions(Map<String, String> warehouse, LakeSyncConfig config) {
        Map<String, String> lake = new LinkedHashMap<>();
        lake.put("metastore", "filesystem");
        lake.putAll(warehouse);
        lake.putAll(config.lakeCatalogOptions());
        return lake;
    }

    /**
     * The coordinator port a client of the local stack in {@code config}'s data folder should use: the configured
     * one if set, else the one the stack last listened on (it may have picked a free one), else the default.
     */
    public static int clientCoordinatorPort(LakeSyncConfig config) throws IOException {
        if (config.isSet(LakeSyncOptions.LOCAL_COORDINATOR_PORT)) {
            return config.get(LakeSyncOptions.LOCAL_COORDINATOR_PORT);
        }
        Path dataDir = Path.of(config.get(LakeSyncOptions.DATA_DIR)).toAbsolutePath().normalize();
        return RememberedPorts.in(dataDir)
                .lastBound(LakeSyncOptions.LOCAL_COORDINATOR_PORT.key())
                .orElse(config.get(LakeSyncOptions.LOCAL_COORDINATOR_PORT));
    }

    /**
     * Starts the stack described by {@code config} ({@code data.dir}, {@code local.tablet-servers} and the
     * {@code local.*} ports), with {@code serverOverrides} applied to every Fluss server's configuration (tests
     * use it for short intervals).
     */
    public static LocalFlussCluster start(LakeSyncConfig config, Map<String, String> serverOverrides)
            throws Exception {
        return start(config, serverOverrides, ServerListeners.NONE);
    }

    /** Starts the stack as {@link #start(LakeSyncConfig, Map)} does, each server with {@code listeners} too. */
    public static LocalFlussCluster start(
            LakeSyncConfig config, Map<String, String> serverOverrides, ServerListeners listeners) throws Exception {
        Path dataDir = Path.of(config.get(LakeSyncOptions.DATA_DIR)).toAbsolutePath().normalize();
        RememberedPorts remembered = RememberedPorts.in(dataDir);
        Ports ports = ports(config, remembered);

        boolean s3Lake = s3Lake(config);
        if (!s3Lake) {
            LocalFlussCluster cluster = new LocalFlussCluster(
                    dataDir, lakeOptions(Map.of("warehouse", dataDir.resolve("warehouse").toString()), config), listeners);
            cluster.startChecked(config, remembered, ports, serverOverrides, Map.of());
            return cluster;
        }
        int s3Port = remembered.portFor(LakeSyncOptions.LOCAL_S3_PORT.key(), config.get(LakeSyncOptions.LOCAL_S3_PORT));
        checkPortFree(LakeSyncOptions.LOCAL_S3_PORT.key(), s3Port);
        S3Server s3 = S3Server.start(dataDir.resolve("s3"), s3Port);
        LocalFlussCluster cluster;
        try {
            s3.createBucket(S3_BUCKET);
            cluster = new LocalFlussCluster(
                    dataDir, lakeOptions(s3.catalogOptions(S3_BUCKET, "warehouse"), config), listeners);
        } catch (Exception | Error e) {
            s3.close();
            throw e;
        }
        // Pushed first, so it stops last: the servers may still write to the lake while they stop.
        cluster.started.push(s3);
        LOG.info("S3 server started on {} (bucket '{}', objects under {})", s3.endpoint(), S3_BUCKET, dataDir.resolve("s3"));
        cluster.startChecked(config, remembered, ports, serverOverrides,
                Map.of(LakeSyncOptions.LOCAL_S3_PORT.key(), s3.port()));
        return cluster;
    }

    /**
     * The ports the configuration and the remembered ones give, each checked free. Tablet server i of a
     * configured {@code local.tablet-server.port} P listens on P + i.
     */
    private static Ports ports(LakeSyncConfig config, RememberedPorts remembered) {
        int zkPort = remembered.portFor(LakeSyncOptions.LOCAL_ZOOKEEPER_PORT.key(), config.get(LakeSyncOptions.LOCAL_ZOOKEEPER_PORT));
        int coordinatorPort = remembered.portFor(LakeSyncOptions.LOCAL_COORDINATOR_PORT.key(), config.get(LakeSyncOptions.LOCAL_COORDINATOR_PORT));
        checkPortFree(LakeSyncOptions.LOCAL_ZOOKEEPER_PORT.key(), zkPort);
        checkPortFree(LakeSyncOptions.LOCAL_COORDINATOR_PORT.key(), coordinatorPort);
        int firstTabletPort = config.get(LakeSyncOptions.LOCAL_TABLET_SERVER_PORT);
        List<Integer> tabletPorts = new ArrayList<>();
        for (int index = 0; index < config.get(LakeSyncOptions.LOCAL_TABLET_SERVERS); index++) {
            int port = remembered.portFor(tabletServerPortKey(index), firstTabletPort == 0 ? 0 : firstTabletPort + index);
            checkPortFree(LakeSyncOptions.LOCAL_TABLET_SERVER_PORT.key(), port);
            tabletPorts.add(port);
        }
        return new Ports(zkPort, coordinatorPort, tabletPorts);
    }

    /**
     * Where {@code ports.properties} keeps tablet server {@code index}'s port: the option's key for the first
     * (as before there were more), {@code local.tablet-server-<i>.port}, like its data folder, for the others.
     */
    private static String tabletServerPortKey(int index) {
        return index == 0 ? LakeSyncOptions.LOCAL_TABLET_SERVER_PORT.key() : "local.tablet-server-" + index + ".port";
    }

    private void startChecked(
            LakeSyncConfig config,
            RememberedPorts remembered,
            Ports ports,
            Map<String, String> serverOverrides,
            Map<String, Integer> otherPorts)
            throws Exception {
        try {
            // Before anything starts: the coordinator opens the catalog at start and would fail less clearly.
            LakeCatalogCheck.check(lakeCatalogOptions());
            startAll(config, ports, serverOverrides);
            Map<String, Integer> bound = new LinkedHashMap<>(otherPorts);
            bound.put(LakeSyncOptions.LOCAL_ZOOKEEPER_PORT.key(), zookeeperPort());
            bound.put(LakeSyncOptions.LOCAL_COORDINATOR_PORT.key(), coordinatorPort());
            for (int index = 0; index < tabletServerCount(); index++) {
                bound.put(tabletServerPortKey(index), tabletServerPort(index));
            }
            remembered.remember(bound);
        } catch (Exception | Error e) {
            // ZooKeeper's threads are not daemons: a half-started stack would keep the JVM alive.
            close();
            throw e;
        }
    }

    /** Whether {@code local.lake} asks for the S3 server; a warehouse of one's own cannot go with it. */
    private static boolean s3Lake(LakeSyncConfig config) {
        String lake = config.get(LakeSyncOptions.LOCAL_LAKE).trim();
        if (lake.equalsIgnoreCase("disk")) {
            return false;
        }
        if (!lake.equalsIgnoreCase("s3")) {
            throw new ConfigException("Invalid value '" + lake + "' for config key '" + LakeSyncOptions.LOCAL_LAKE.key()
                    + "': use 'disk' (a warehouse folder under data.dir) or 's3' (a local S3 server).");
        }
        if (config.lakeCatalogOptions().containsKey("warehouse")) {
            throw new ConfigException("Config keys '" + LakeSyncOptions.LOCAL_LAKE.key() + "' = 's3' and '"
                    + LakeSyncOptions.LAKE_PREFIX + "warehouse' both say where the lake lives: with 's3' the local "
                    + "stack puts it at s3://" + S3_BUCKET + "/warehouse on its own S3 server. Remove one of them.");
        }
        return true;
    }

    private void startAll(LakeSyncConfig config, Ports ports, Map<String, String> serverOverrides) throws Exception {
        Files.createDirectories(dataDir);
        Path zkDir = Files.createDirectories(dataDir.resolve("zookeeper"));
        InstanceSpec spec =
                new InstanceSpec(
                        zkDir.toFile(),
                        ports.zookeeper() == 0 ? InstanceSpec.getRandomPort() : ports.zookeeper(),
                        -1,
                        -1,
                        false,
                        1,
                        500,
                        200,
                        Map.of("admin.enableServer", "false"),
                        HOST);
        zookeeper = new TestingServer(spec, true);
        started.push(zookeeper);
        LOG.info("ZooKeeper started on {}", zookeeper.getConnectString());

        int tabletServerCount = ports.tabletServers().size();
        Configuration common = new Configuration();
        common.setString(ConfigOptions.ZOOKEEPER_ADDRESS.key(), zookeeper.getConnectString());
        common.setString(ConfigOptions.REMOTE_DATA_DIR.key(), dataDir.resolve("remote").toString());
        common.setString(ConfigOptions.DEFAULT_REPLICATION_FACTOR.key(),
                Integer.toString(Math.min(tabletServerCount, MAX_REPLICATION_FACTOR)));
        // A tablet server of the stack stops either as a fault (stopTabletServer: as abrupt as Fluss allows in
        // one JVM, leaving leader election to the coordinator) or with the whole stack, when its buckets have no
        // server to move to: skip the controlled shutdown's handover, its 3 s of failed retries logged as errors.
        common.setString(ConfigOptions.TABLET_SERVER_CONTROLLED_SHUTDOWN_MAX_RETRIES.key(), "0");
        // Fluss 0.9.1 can stop reading a client's connections for good once a server's request queue passed its
        // backpressure threshold (max-queued-requests / worker threads) and drained before the pause took effect
        // (apache/fluss#4016); a writer whose leader just failed over fills it within a second. The stack's
        // clients bound their requests in flight themselves, so its servers queue without that threshold.
        common.setString(ConfigOptions.NETTY_SERVER_MAX_QUEUED_REQUESTS.key(), Integer.toString(Integer.MAX_VALUE));
        common.setString("datalake.format", "paimon");
        lakeCatalogOptions.forEach((k, v) -> common.setString(LakeSyncOptions.LAKE_PREFIX + k, v));
        common.setString(
                ConfigOptions.KV_SNAPSHOT_INTERVAL.key(),
                config.get(LakeSyncOptions.LOCAL_KV_SNAPSHOT_INTERVAL).toMillis() + " ms");
        serverOverrides.forEach(common::setString);
        serverCommon = common;

        boundCoordinatorPort = ports.coordinator();
        started.push(this::stopCoordinator);
        startCoordinator();
        bootstrapServers = HOST + ":" + coordinatorPort();

        started.push(this::stopTabletServers);
        for (int port : ports.tabletServers()) {
            tabletServers.add(new TabletServerSlot(port));
        }
        for (int index = 0; index < tabletServerCount; index++) {
            launchTabletServer(index);
        }
        awaitTabletServersSeen();
        LOG.info(
                "Fluss started: coordinator {}, tablet servers {} on {}, replication factor {}, Paimon warehouse {}",
                bootstrapServers,
                tabletServerCount,
                tabletServers.stream().map(slot -> HOST + ":" + slot.port).collect(Collectors.joining(", ")),
                common.get(ConfigOptions.DEFAULT_REPLICATION_FACTOR),
                warehouseLocation());
    }

    /** Starts the coordinator on its port, the one it bound before if it ran already. */
    private void startCoordinator() throws Exception {
        Configuration conf = new Configuration(serverCommon);
        setListeners(conf, "coordinator", boundCoordinatorPort);
        CoordinatorServer server = new CoordinatorServer(conf);
        server.start();
        coordinator = server;
        boundCoordinatorPort = boundPort(server.getRpcServer());
    }

    private void stopCoordinator() throws Exception {
        CoordinatorServer server = coordinator;
        coordinator = null;
        if (server != null) {
            stop(server);
        }
    }

    /** Starts tablet server {@code index} on its data folder and port, without waiting for the others to see it. */
    private void launchTabletServer(int index) throws Exception {
        TabletServerSlot slot = tabletServers.get(index);
        Configuration conf = new Configuration(serverCommon);
        setListeners(conf, "tablet-server-" + index, slot.port);
        conf.setString(ConfigOptions.TABLET_SERVER_ID.key(), Integer.toString(index));
        conf.setString(ConfigOptions.DATA_DIR.key(), dataDir.resolve("tablet-server-" + index).toString());
        TabletServer server = new TabletServer(conf);
        server.start();
        slot.running = server;
        slot.port = boundPort(server.getRpcServer());
    }

    /**
     * Stops every running tablet server at once: one after the other, each would wait out Netty's quiet period
     * (about 2 s) while the coordinator moves its buckets' leadership to servers about to stop too.
     */
    private synchronized void stopTabletServers() throws Exception {
        List<CompletableFuture<Void>> stops = new ArrayList<>();
        for (int index = 0; index < tabletServers.size(); index++) {
            if (tabletServerRunning(index)) {
                int stopping = index;
                TabletServer server = detach(index);
                stops.add(CompletableFuture.runAsync(() -> {
                    try {
                        stop(stopping, server);
                    } catch (Exception e) {
                        throw new CompletionException(e);
                    }
                }));
            }
        }
        try {
            CompletableFuture.allOf(stops.toArray(CompletableFuture[]::new)).get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /**
     * Waits until the coordinator and every running tablet server list exactly the running tablet servers.
     * Ready means writable: tables or partitions created before the coordinator has seen a tablet server register
     * can end up with buckets that never get a leader, and clients learn the servers from the tablet servers.
     */
    private void awaitTabletServersSeen() throws Exception {
        Set<Integer> running = new TreeSet<>();
        for (int index = 0; index < tabletServers.size(); index++) {
            if (tabletServerRunning(index)) {
                running.add(index);
            }
        }
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!seenAlive(coordinator.getMetadataCache()).equals(running)
                || running.stream().anyMatch(index ->
                        !seenAlive(tabletServers.get(index).running.getMetadataCache()).equals(running))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("The Fluss servers did not all see tablet servers " + running
                        + " running within " + READY_TIMEOUT.toSeconds() + " s (the coordinator sees "
                        + seenAlive(coordinator.getMetadataCache()) + ").");
            }
            Thread.sleep(50);
        }
    }

    private static Set<Integer> seenAlive(ServerMetadataCache metadata) {
        return metadata.getAliveTabletServerInfos().stream().map(TabletServerInfo::getId)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static void stop(ServerBase server) throws Exception {
        server.closeAsync().get(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    /** The port of a server's own listener ({@link ServerListeners} may add others). */
    private static int boundPort(RpcServer server) {
        return server.getBindEndpoints().stream()
                .filter(endpoint -> endpoint.getListenerName().equals("FLUSS"))
                .findFirst()
                .orElseThrow()
                .getPort();
    }

    private void setListeners(Configuration conf, String server, int port) throws Exception {
        String fluss = "FLUSS://" + HOST + ":" + port;
        conf.setString(ConfigOptions.BIND_LISTENERS.key(), fluss);
        listeners.options(server, fluss).forEach(conf::setString);
    }

    /** How many tablet servers the stack has, running or stopped; their indexes are 0 to this - 1. */
    public int tabletServerCount() {
        return tabletServers.size();
    }

    /**
     * Stops tablet server {@code index} as abruptly as Fluss allows in one JVM: no controlled shutdown, so its
     * buckets keep it as leader until the coordinator sees its ZooKeeper session end and elects another. Its data
     * folder and port stay for {@link #startTabletServer}.
     */
    public void stopTabletServer(int index) throws Exception {
        TabletServer server;
        synchronized (this) {
            server = detach(index);
        }
        stop(index, server);
    }

    /** Takes running tablet server {@code index} out of its slot, to be stopped outside the cluster's lock. */
    private TabletServer detach(int index) {
        TabletServerSlot slot = slot(index);
        TabletServer server = slot.running;
        if (server == null) {
            throw new IllegalStateException("Tablet server " + index + " is not running.");
        }
        slot.running = null;
        return server;
    }

    private void stop(int index, TabletServer server) throws Exception {
        stop(server);
        LOG.info("Tablet server {} ({}:{}) stopped; its data stays in {}", index, HOST, tabletServerPort(index),
                tabletServerDir(index));
    }

    /**
     * Starts stopped tablet server {@code index} again on its data folder and port, and waits until the
     * coordinator and the other tablet servers see it.
     */
    public synchronized void startTabletServer(int index) throws Exception {
        if (tabletServerRunning(index)) {
            throw new IllegalStateException("Tablet server " + index + " is running already.");
        }
        launchTabletServer(index);
        awaitTabletServersSeen();
        LOG.info("Tablet server {} started again on {}:{}", index, HOST, tabletServerPort(index));
    }

    /** Whether tablet server {@code index} runs (it was not stopped, or was started again). */
    public boolean tabletServerRunning(int index) {
        return slot(index).running != null;
    }

    /**
     * Stops the coordinator and starts a new one on the same port; returns once it sees every running tablet
     * server. Clients keep its address; the tablet servers go on serving meanwhile.
     */
    public synchronized void restartCoordinator() throws Exception {
        stopCoordinator();
        LOG.info("Fluss coordinator on {} stopped; starting it again", bootstrapServers);
        startCoordinator();
        awaitTabletServersSeen();
        LOG.info("Fluss coordinator started again on {}", bootstrapServers);
    }

    private TabletServerSlot slot(int index) {
        if (index < 0 || index >= tabletServers.size()) {
            throw new IllegalArgumentException("No tablet server " + index + ": the stack has "
                    + tabletServers.size() + " (config key '" + LakeSyncOptions.LOCAL_TABLET_SERVERS.key() + "').");
        }
        return tabletServers.get(index);
    }

    private Path tabletServerDir(int index) {
        return dataDir.resolve("tablet-server-" + index);
    }

    /** The port the coordinator listens on (the bootstrap port). */
    public int coordinatorPort() {
        return boundCoordinatorPort;
    }

    /** The port the first tablet server listens on. */
    public int tabletServerPort() {
        return tabletServerPort(0);
    }

    /** The port tablet server {@code index} listens on, or listened on last while it is stopped. */
    public int tabletServerPort(int index) {
        return slot(index).port;
    }

    /** The port ZooKeeper listens on. */
    public int zookeeperPort() {
        return zookeeper.getPort();
    }

    /** The address Fluss clients bootstrap from. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Root folder of the Paimon warehouse, when it is a local one ({@code datalake.paimon.warehouse}, a path or file: URI). */
    public Path warehouse() {
        String warehouse = warehouseLocation();
        if (warehouse.matches("^[a-zA-Z][a-zA-Z0-9+.-]*://.*") && !warehouse.startsWith("file:")) {
            throw new IllegalStateException("The warehouse " + warehouse + " is not a local folder.");
        }
        return warehouse.startsWith("file:") ? Path.of(URI.create(warehouse)) : Path.of(warehouse);
    }

    /** Where the Paimon warehouse is: a folder, or an {@code s3://} URI with {@code local.lake = s3}. */
    public String warehouseLocation() {
        return lakeCatalogOptions.get("warehouse");
    }

    /** Fluss client configuration for this cluster. */
    public Configuration clientConfiguration() {
        Configuration conf = new Configuration();
        conf.setString(ConfigOptions.BOOTSTRAP_SERVERS.key(), bootstrapServers);
        conf.setString(ConfigOptions.CLIENT_SCANNER_IO_TMP_DIR.key(), dataDir.resolve("tmp").toString());
        return conf;
    }

    /** The Paimon catalog options the cluster was started with (prefix {@code datalake.paimon.} stripped). */
    public Map<String, String> lakeCatalogOptions() {
        return lakeCatalogOptions;
    }

    /**
     * The same configuration with this cluster's Fluss bootstrap address and Paimon warehouse filled in, for
     * the lakesync service that runs next to it.
     */
    public LakeSyncConfig serviceConfig(LakeSyncConfig config) {
        Map<String, String> overrides = new LinkedHashMap<>();
        overrides.put(LakeSyncOptions.FLUSS_PREFIX + ConfigOptions.BOOTSTRAP_SERVERS.key(), bootstrapServers);
        lakeCatalogOptions().forEach((k, v) -> overrides.put(LakeSyncOptions.LAKE_PREFIX + k, v));
        return config.with(overrides);
    }

    /**
     * The lake log end offset the bucket's current leader holds (what tiering last told it), or -1 when no running
     * tablet server leads the bucket or it was never tiered.
     */
    public long lakeLogEndOffset(TableBucket bucket) {
        int leader = leaderOf(bucket);
        return leader < 0 ? -1 : leaderReplica(leader, bucket).getLakeLogEndOffset();
    }

    /** The index of the running tablet server that leads {@code bucket} now, or -1 when none does. */
    public int leaderOf(TableBucket bucket) {
        for (int index = 0; index < tabletServers.size(); index++) {
            if (leaderReplica(index, bucket) != null) {
                return index;
            }
        }
        return -1;
    }

    /**
     * The tablet servers in {@code bucket}'s in-sync replica set, as its running leader sees it; empty when no
     * running tablet server leads it. Only these can take the lead over when the leader stops.
     */
    public List<Integer> inSyncReplicasOf(TableBucket bucket) {
        int leader = leaderOf(bucket);
        return leader < 0 ? List.of() : List.copyOf(leaderReplica(leader, bucket).getIsr());
    }

    /** Tablet server {@code index}'s replica of {@code bucket} when it runs and leads it, else null. */
    private Replica leaderReplica(int index, TableBucket bucket) {
        TabletServer server = tabletServers.get(index).running;
        if (server != null && server.getReplicaManager().getReplica(bucket) instanceof ReplicaManager.OnlineReplica online
                && online.getReplica().isLeader()) {
            return online.getReplica();
        }
        return null;
    }

    /** Stops the tablet servers, the coordinator and ZooKeeper, in that order; data stays on disk. */
    @Override
    public synchronized void close() throws Exception {
        Exception failure = null;
        while (!started.isEmpty()) {
            try {
                started.pop().close();
            } catch (Exception e) {
                failure = firstOrSuppressed(failure, e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static Exception firstOrSuppressed(Exception first, Exception next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    private static void checkPortFree(String optionKey, int port) {
        if (port != 0 && !isFree(port)) {
            throw new PortInUseException(optionKey, port);
        }
    }

    static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
