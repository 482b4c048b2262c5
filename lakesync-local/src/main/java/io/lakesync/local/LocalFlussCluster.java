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
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.cluster.ServerNode;
import org.apache.fluss.cluster.ServerType;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.rpc.RpcServer;
import org.apache.fluss.server.ServerBase;
import org.apache.fluss.server.replica.ReplicaManager;
import org.apache.fluss.server.coordinator.CoordinatorServer;
import org.apache.fluss.server.tablet.TabletServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded local stack: a ZooKeeper, a Fluss coordinator and one tablet server bound to 127.0.0.1, with a
 * Paimon filesystem warehouse, all under one data folder so a second start resumes every table and row.
 *
 * <p>The lake catalog is a filesystem catalog on {@code data.dir/warehouse} unless the configuration's
 * {@code datalake.paimon.*} options say otherwise (for example a JDBC catalog, {@code metastore = jdbc}); the
 * Fluss servers and {@link #serviceConfig} get the same options, as a production deployment must.
 *
 * <pre>
 * data.dir/
 *   zookeeper/        ZooKeeper snapshots and logs (Fluss metadata, lake offsets)
 *   tablet-server-0/  Fluss log segments and KV stores
 *   remote/           Fluss remote data: KV snapshots, tiered log, lake offsets files
 *   warehouse/        the Paimon warehouse (the lake)
 *   s3/               with local.lake = s3 instead: the S3 server's objects, the lake at s3://lake/warehouse
 *   ports.properties  the ports picked for options set to 0, reused by the next start while they are free
 * </pre>
 *
 * Keeping the ports matters: Fluss clients (a lakesync service, writers) cache the servers' addresses, so a
 * restarted stack on the same ports lets them carry on.
 */
public final class LocalFlussCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalFlussCluster.class);
    private static final String HOST = "127.0.0.1";
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final String S3_BUCKET = "lake";

    private final Path dataDir;
    private final Map<String, String> lakeCatalogOptions;
    private final ServerListeners listeners;
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private TestingServer zookeeper;
    private CoordinatorServer coordinator;
    private TabletServer tabletServer;
    private String bootstrapServers;

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
     * Starts the stack described by {@code config} ({@code data.dir} and the {@code local.*} ports), with
     * {@code serverOverrides} applied to both Fluss servers' configuration (tests use it for short intervals).
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
        int zkPort = remembered.portFor(LakeSyncOptions.LOCAL_ZOOKEEPER_PORT.key(), config.get(LakeSyncOptions.LOCAL_ZOOKEEPER_PORT));
        int coordinatorPort = remembered.portFor(LakeSyncOptions.LOCAL_COORDINATOR_PORT.key(), config.get(LakeSyncOptions.LOCAL_COORDINATOR_PORT));
        int tabletPort = remembered.portFor(LakeSyncOptions.LOCAL_TABLET_SERVER_PORT.key(), config.get(LakeSyncOptions.LOCAL_TABLET_SERVER_PORT));
        checkPortFree(LakeSyncOptions.LOCAL_ZOOKEEPER_PORT.key(), zkPort);
        checkPortFree(LakeSyncOptions.LOCAL_COORDINATOR_PORT.key(), coordinatorPort);
        checkPortFree(LakeSyncOptions.LOCAL_TABLET_SERVER_PORT.key(), tabletPort);

        boolean s3Lake = s3Lake(config);
        if (!s3Lake) {
            LocalFlussCluster cluster = new LocalFlussCluster(
                    dataDir, lakeOptions(Map.of("warehouse", dataDir.resolve("warehouse").toString()), config), listeners);
            cluster.startChecked(config, remembered, zkPort, coordinatorPort, tabletPort, serverOverrides, Map.of());
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
        cluster.startChecked(config, remembered, zkPort, coordinatorPort, tabletPort, serverOverrides,
                Map.of(LakeSyncOptions.LOCAL_S3_PORT.key(), s3.port()));
        return cluster;
    }

    private void startChecked(
            LakeSyncConfig config,
            RememberedPorts remembered,
            int zkPort,
            int coordinatorPort,
            int tabletPort,
            Map<String, String> serverOverrides,
            Map<String, Integer> otherPorts)
            throws Exception {
        try {
            // Before anything starts: the coordinator opens the catalog at start and would fail less clearly.
            LakeCatalogCheck.check(lakeCatalogOptions());
            startAll(config, zkPort, coordinatorPort, tabletPort, serverOverrides);
            Map<String, Integer> ports = new LinkedHashMap<>(otherPorts);
            ports.put(LakeSyncOptions.LOCAL_ZOOKEEPER_PORT.key(), zookeeperPort());
            ports.put(LakeSyncOptions.LOCAL_COORDINATOR_PORT.key(), coordinatorPort());
            ports.put(LakeSyncOptions.LOCAL_TABLET_SERVER_PORT.key(), tabletServerPort());
            remembered.remember(ports);
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

    private void startAll(
            LakeSyncConfig config,
            int zkPort,
            int coordinatorPort,
            int tabletPort,
            Map<String, String> serverOverrides)
            throws Exception {
        Files.createDirectories(dataDir);
        Path zkDir = Files.createDirectories(dataDir.resolve("zookeeper"));
        InstanceSpec spec =
                new InstanceSpec(
                        zkDir.toFile(),
                        zkPort == 0 ? InstanceSpec.getRandomPort() : zkPort,
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

        Configuration common = new Configuration();
        common.setString(ConfigOptions.ZOOKEEPER_ADDRESS.key(), zookeeper.getConnectString());
        common.setString(ConfigOptions.REMOTE_DATA_DIR.key(), dataDir.resolve("remote").toString());
        common.setString(ConfigOptions.DEFAULT_REPLICATION_FACTOR.key(), "1");
        common.setString("datalake.format", "paimon");
        lakeCatalogOptions.forEach((k, v) -> common.setString(LakeSyncOptions.LAKE_PREFIX + k, v));
        common.setString(
                ConfigOptions.KV_SNAPSHOT_INTERVAL.key(),
                config.get(LakeSyncOptions.LOCAL_KV_SNAPSHOT_INTERVAL).toMillis() + " ms");
        serverOverrides.forEach(common::setString);

        Configuration coordinatorConf = new Configuration(common);
        setListeners(coordinatorConf, "coordinator", coordinatorPort);
        coordinator = new CoordinatorServer(coordinatorConf);
        startServer(coordinator);
        bootstrapServers = HOST + ":" + coordinatorPort();

        Configuration tabletConf = new Configuration(common);
        setListeners(tabletConf, "tablet-server-0", tabletPort);
        tabletConf.setString(ConfigOptions.TABLET_SERVER_ID.key(), "0");
        tabletConf.setString(ConfigOptions.DATA_DIR.key(), dataDir.resolve("tablet-server-0").toString());
        tabletServer = new TabletServer(tabletConf);
        startServer(tabletServer);
        awaitTabletServerKnownToCoordinator();
        LOG.info(
                "Fluss started: coordinator {}, tablet server {}:{}, Paimon warehouse {}",
                bootstrapServers,
                HOST,
                tabletServerPort(),
                warehouseLocation());
    }

    private void setListeners(Configuration conf, String server, int port) throws Exception {
        String fluss = "FLUSS://" + HOST + ":" + port;
        conf.setString(ConfigOptions.BIND_LISTENERS.key(), fluss);
        listeners.options(server, fluss).forEach(conf::setString);
    }

    /**
     * Ready means writable: tables or partitions created before the coordinator has seen the tablet server
     * register can end up with buckets that never get a leader, so wait for the coordinator to list it.
     */
    private void awaitTabletServerKnownToCoordinator() throws Exception {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        try (Connection connection = ConnectionFactory.createConnection(clientConfiguration())) {
            while (true) {
                try {
                    List<ServerNode> nodes = connection.getAdmin().getServerNodes().get();
                    if (nodes.stream().anyMatch(n -> n.serverType() == ServerType.TABLET_SERVER)) {
                        return;
                    }
                } catch (ExecutionException notYet) {
                    // "Alive tablet server is empty": the coordinator has not seen it register yet.
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "The Fluss coordinator did not see the tablet server within " + READY_TIMEOUT.toSeconds() + " s.");
                }
                Thread.sleep(50);
            }
        }
    }

    private void startServer(ServerBase server) throws Exception {
        server.start();
        started.push(() -> server.closeAsync().get(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
    }

    /** The port the coordinator listens on (the bootstrap port). */
    public int coordinatorPort() {
        return flussPort(coordinator.getRpcServer());
    }

    /** The port the tablet server listens on. */
    public int tabletServerPort() {
        return flussPort(tabletServer.getRpcServer());
    }

    /** The port of a server's own listener ({@link ServerListeners} may add others). */
    private static int flussPort(RpcServer server) {
        return server.getBindEndpoints().stream()
                .filter(endpoint -> endpoint.getListenerName().equals("FLUSS"))
                .findFirst()
                .orElseThrow()
                .getPort();
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
     * The lake log end offset the tablet server holds for a bucket (what tiering last told it), or -1 when the
     * bucket has no replica here or was never tiered.
     */
    public long lakeLogEndOffset(TableBucket bucket) {
        ReplicaManager.HostedReplica hosted = tabletServer.getReplicaManager().getReplica(bucket);
        if (hosted instanceof ReplicaManager.OnlineReplica online) {
            return online.getReplica().getLakeLogEndOffset();
        }
        return -1;
    }

    /** Stops the tablet server, the coordinator and ZooKeeper, in that order; data stays on disk. */
    @Override
    public void close() throws Exception {
        Exception failure = null;
        while (!started.isEmpty()) {
            try {
                started.pop().close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
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
