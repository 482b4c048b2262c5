package io.lakesync.fluss;

import io.lakesync.errors.ErrorMessages;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.metadata.MetadataUpdater;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.cluster.Cluster;
import org.apache.fluss.cluster.ServerNode;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.exception.NetworkException;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.rpc.gateway.CoordinatorGateway;
import org.apache.fluss.rpc.gateway.TabletServerGateway;
import org.apache.fluss.rpc.messages.MetadataRequest;
import org.apache.fluss.rpc.messages.MetadataResponse;
import org.apache.fluss.rpc.messages.PbServerNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Fluss {@link Connection} that follows the cluster when its servers come back on new addresses, or when some of
 * its tablet servers stop, move or join while the others go on.
 *
 * <p>Why it is needed (Fluss 0.9.1 client): a connection caches the cluster's server addresses. Read-only admin
 * calls go to a random tablet server from that cache, and a log scanner only refreshes its metadata on an
 * "invalid metadata" answer; a metadata refresh asks a random cached tablet server too, and one that does not
 * answer leaves the cache as it was. So once a tablet server stops or restarts on another port, the connection
 * keeps dialling the old address (for ever when every server moved). This class probes the coordinator and
 * every tablet server the coordinator lists, and follows what it sees:
 *
 * <pre>
 *   open ── connect (bounded) ──► CONNECTED ◄─────────── the coordinator answers ─────────────────────┐
 *    │ fails                      │  probe (every check interval):                                    │
 *    │                            │  ├ the coordinator lists other tablet servers than the cache:     │
 *    │                            │  │   refresh the cache in place (rounds in flight go on) ─────────┤
 *    │                            │  └ a listed tablet server does not answer: silentTabletServers() ─┤
 *    ▼                            ▼  the coordinator does not answer                                  │
 *   DISCONNECTED ── connects ──► a fresh connection from the bootstrap servers ───────────────────────┤
 *    ▲   (calls fail with         │ cannot connect: keep the old one (the cluster                     │
 *    │    NetworkException)       │   is down; at the same addresses it redials)                      │
 *    └────────────────────────────┤ same server addresses: keep the old one ──────────────────────────┘
 *                                 │ the servers moved: switch to the fresh one, close
 *                                 ▼   the old one in the background (bounded wait)
 *                               CONNECTED (new)
 * </pre>
 *
 * {@link #getAdmin()} returns one {@link Admin} that always talks through the current connection, so callers may
 * keep it; {@link #getTable} opens the table on the current connection; {@link #coordinatorGateway()} is the
 * coordinator's RPC gateway of the current connection. A round using a table of a replaced connection fails and
 * is retried on the new one.
 */
public final class ReconnectingConnection implements Connection {

    private static final Logger LOG = LoggerFactory.getLogger(ReconnectingConnection.class);
    /** How often the connection is probed by default. */
    public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofSeconds(2);
    /** How long one probe or connection attempt may take by default. */
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(10);
    /** Fluss's close waits for pending writes without a limit; a replaced connection gets this long. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
    private static final AtomicInteger THREADS = new AtomicInteger();

    /** One live Fluss connection with its coordinator gateway. */
    private record Live(Connection connection, CoordinatorGateway coordinator) {
        static Live of(Connection connection) {
            return new Live(connection, ((FlussConnection) connection).getMetadataUpdater().newCoordinatorServerClient());
        }
    }

    private final Configuration conf;
    private final String bootstrapServers;
    private final Duration callTimeout;
    private final ScheduledExecutorService watchdog;
    private final ExecutorService background;
    private final Admin admin;
    private final CoordinatorGateway coordinator;
    private volatile Live live;
    private volatile String unreachableReason;
    private volatile String silentTabletServers;
    private volatile boolean closed;

    private ReconnectingConnection(Configuration conf, Duration callTimeout) {
        this.conf = conf;
        this.bootstrapServers = String.join(",", conf.get(ConfigOptions.BOOTSTRAP_SERVERS));
        this.callTimeout = callTimeout;
        this.watchdog = Executors.newSingleThreadScheduledExecutor(named("lakesync-fluss-watchdog"));
        this.background = Executors.newCachedThreadPool(named("lakesync-fluss-connect"));
        this.admin = forwarding(Admin.class, Connection::getAdmin);
        this.coordinator = forwarding(CoordinatorGateway.class, connection -> live().coordinator());
    }

    /** Opens with the default check interval and call timeout. */
    public static ReconnectingConnection open(Configuration conf) {
        return open(conf, DEFAULT_CHECK_INTERVAL, DEFAULT_CALL_TIMEOUT);
    }

    /**
     * Connects (waiting at most {@code callTimeout}) and probes the connection every {@code checkInterval}. If the
     * cluster cannot be reached yet, returns anyway: calls then fail with a {@link NetworkException} naming the
     * reason until a later check connects.
     */
    public static ReconnectingConnection open(Configuration conf, Duration checkInterval, Duration callTimeout) {
        ReconnectingConnection connection = new ReconnectingConnection(conf, callTimeout);
        connection.check();
        connection.watchdog.scheduleWithFixedDelay(
                connection::checkQuietly, checkInterval.toMillis(), checkInterval.toMillis(), TimeUnit.MILLISECONDS);
        return connection;
    }

    /** The Fluss connection in use now. */
    public Connection current() {
        return live().connection();
    }

    /** The connection in use now behind {@code connection}: a reconnecting one's current, else itself. */
    public static Connection currentOf(Connection connection) {
        return connection instanceof ReconnectingConnection reconnecting ? reconnecting.current() : connection;
    }

    /** The coordinator's RPC gateway, always through the current connection. */
    public CoordinatorGateway coordinatorGateway() {
        return coordinator;
    }

    /** Why the cluster cannot be reached, or null while the last check succeeded. */
    @Nullable
    public String unreachableReason() {
        return unreachableReason;
    }

    /**
     * Which tablet servers the coordinator lists did not answer the last probe, and why; null while all did (or
     * the coordinator itself did not answer: see {@link #unreachableReason}). Their buckets cannot be read until
     * the coordinator elects other leaders or they answer again.
     */
    @Nullable
    public String silentTabletServers() {
        return silentTabletServers;
    }

    @Override
    public Configuration getConfiguration() {
        return conf;
    }

    @Override
    public Admin getAdmin() {
        return admin;
    }

    @Override
    public Table getTable(TablePath tablePath) {
        return current().getTable(tablePath);
    }

    /**
     * Probes the current connection once and reconnects as the class comment draws it. Runs on the watchdog
     * every check interval; tests call it directly.
     */
    public synchronized void check() {
        if (closed) {
            return;
        }
        Live before = live;
        if (before != null) {
            Map<Integer, String> listed;
            try {
                listed = tabletServersListed(before);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                listed = null; // find out below whether the servers are elsewhere now
            }
            if (listed != null) {
                reachable();
                followTabletServers(before, listed);
                return;
            }
        }
        silentTabletServers = null; // the coordinator's list is unknown: unreachableReason tells why
        Connection fresh;
        try {
            fresh = connect();
        } catch (Exception e) {
            unreachable(ErrorMessages.describe(e));
            return;
        }
        if (before == null) {
            live = Live.of(fresh);
            LOG.info("Connected to the Fluss cluster at {}: servers {}", bootstrapServers, addresses(fresh));
            reachable();
            return;
        }
        Set<String> oldAddresses = addresses(before.connection());
        Set<String> newAddresses = addresses(fresh);
        if (newAddresses.containsAll(oldAddresses)) {
            // Same servers: the probe failed for another reason; the old connection redials them itself.
            closeInBackground(fresh);
            unreachable("the Fluss servers " + oldAddresses + " do not answer");
            return;
        }
        live = Live.of(fresh);
        LOG.info("The Fluss servers moved from {} to {}; switched to a new connection", oldAddresses, newAddresses);
        reachable();
        closeInBackground(before.connection());
    }

    /** The tablet servers the coordinator lists now, id to address. */
    private Map<Integer, String> tabletServersListed(Live current) throws Exception {
        MetadataResponse response = Deadline.in(callTimeout).await(
                current.coordinator().metadata(new MetadataRequest()), "The Fluss coordinator (probe)");
        Map<Integer, String> listed = new TreeMap<>();
        for (PbServerNode node : response.getTabletServersList()) {
            listed.put(node.getNodeId(), node.getHost() + ":" + node.getPort());
        }
        return listed;
    }

    /**
     * Brings the connection's cached tablet servers in line with the coordinator's {@code listed} ones, so that a
     * stopped or moved server is no longer dialled, then probes each cached one and names those that are silent.
     */
    private void followTabletServers(Live current, Map<Integer, String> listed) {
        MetadataUpdater metadata = ((FlussConnection) current.connection()).getMetadataUpdater();
        Map<Integer, String> cached = tabletServersCached(metadata);
        // None listed: the coordinator has not seen any register yet, and Fluss refuses a metadata without them.
        if (!listed.isEmpty() && !cached.equals(listed)) {
            refreshTabletServers(metadata, cached, listed);
        }
        Deadline deadline = Deadline.in(callTimeout);
        Map<ServerNode, CompletableFuture<MetadataResponse>> probes = new LinkedHashMap<>();
        metadata.getCluster().getAliveTabletServers().forEach((id, node) -> {
            TabletServerGateway gateway = metadata.newTabletServerClientForNode(id);
            if (gateway != null) {
                probes.put(node, gateway.metadata(new MetadataRequest()));
            }
        });
        List<String> silent = new ArrayList<>();
        probes.forEach((node, probe) -> {
            try {
                deadline.await(probe, "the probe");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                silent.add(node.uid() + " at " + node.host() + ":" + node.port() + " (" + ErrorMessages.describe(e) + ")");
            }
        });
        String reason = silent.isEmpty() ? null : "Fluss tablet servers do not answer: " + String.join(", ", silent);
        if (!Objects.equals(reason, silentTabletServers)) {
            if (reason == null) {
                LOG.info("Every Fluss tablet server of {} answers again", bootstrapServers);
            } else {
                LOG.warn("{}", reason);
            }
        }
        silentTabletServers = reason;
    }

    /**
     * Refreshes the cached tablet servers until they are the {@code listed} ones. Fluss 0.9.1 asks one random
     * cached tablet server per refresh and, when that one does not answer, only marks it unavailable and keeps
     * the cache (MetadataUpdater#updateMetadata): the next refresh asks another, the last the bootstrap servers.
     * A tablet server that has not heard of the change yet leaves it to the next check.
     */
    private void refreshTabletServers(MetadataUpdater metadata, Map<Integer, String> cached, Map<Integer, String> listed) {
        Map<Integer, String> now = cached;
        for (int attempt = 0; attempt <= cached.size() && !now.equals(listed); attempt++) {
            try {
                Deadline.in(callTimeout).call(() -> {
                    metadata.updateMetadata(null, null, null);
                    return null;
                }, "Fluss (refreshing the tablet servers)");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                LOG.debug("Refreshing the Fluss tablet servers failed", e);
            }
            now = tabletServersCached(metadata);
        }
        if (now.equals(listed)) {
            LOG.info("The Fluss tablet servers changed from {} to {}; the connection follows", cached, listed);
        }
    }

    private static Map<Integer, String> tabletServersCached(MetadataUpdater metadata) {
        Map<Integer, String> cached = new TreeMap<>();
        metadata.getCluster().getAliveTabletServers().forEach((id, node) -> cached.put(id, node.host() + ":" + node.port()));
        return cached;
    }

    private void checkQuietly() {
        try {
            check();
        } catch (RuntimeException e) {
            LOG.warn("Checking the Fluss connection failed: {}", ErrorMessages.describe(e));
        }
    }

    /** A new connection from the bootstrap servers, given at most the call timeout. */
    private Connection connect() throws Exception {
        CompletableFuture<Connection> attempt =
                CompletableFuture.supplyAsync(() -> ConnectionFactory.createConnection(conf), background);
        try {
            return attempt.get(callTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // Fluss retries a silent bootstrap server for minutes; whatever it ends with is not wanted any more.
            attempt.thenAccept(this::closeInBackground);
            throw new TimeoutException("the bootstrap servers " + bootstrapServers + " did not answer within "
                    + callTimeout.toMillis() + " ms");
        }
    }

    private void reachable() {
        if (unreachableReason != null) {
            LOG.info("The Fluss cluster at {} answers again", bootstrapServers);
            unreachableReason = null;
        }
    }

    private void unreachable(String reason) {
        if (!Objects.equals(reason, unreachableReason)) {
            LOG.warn("Cannot reach the Fluss cluster at {}: {}", bootstrapServers, reason);
        }
        unreachableReason = reason;
    }

    private Live live() {
        Live current = live;
        if (current == null) {
            String reason = unreachableReason;
            throw new NetworkException("Not connected to the Fluss cluster at " + bootstrapServers
                    + (reason == null ? "" : ": " + reason));
        }
        return current;
    }

    private void closeInBackground(Connection connection) {
        CompletableFuture.runAsync(() -> {
                    try {
                        connection.close();
                    } catch (Exception e) {
                        LOG.debug("Closing a replaced Fluss connection failed", e);
                    }
                }, background)
                .orTimeout(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .exceptionally(e -> {
                    LOG.warn("A replaced Fluss connection did not close within {} s; left to finish on its own",
                            CLOSE_TIMEOUT.toSeconds());
                    return null;
                });
    }

    /** Stops probing and closes the current connection, waiting for it at most a few seconds. */
    @Override
    public void close() {
        closed = true;
        watchdog.shutdownNow();
        Live last = live;
        live = null;
        if (last != null) {
            CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> {
                try {
                    last.connection().close();
                } catch (Exception e) {
                    LOG.debug("Closing the Fluss connection failed", e);
                }
            }, background);
            try {
                closing.get(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                LOG.warn("The Fluss connection did not close within {} s; left to finish on its own", CLOSE_TIMEOUT.toSeconds());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                LOG.debug("Closing the Fluss connection failed", e);
            }
        }
        background.shutdown();
    }

    /** Coordinator and tablet server addresses a connection's metadata holds. */
    private static Set<String> addresses(Connection connection) {
        Cluster cluster = ((FlussConnection) connection).getMetadataUpdater().getCluster();
        Set<String> addresses = new TreeSet<>();
        ServerNode coordinator = cluster.getCoordinatorServer();
        if (coordinator != null) {
            addresses.add(coordinator.host() + ":" + coordinator.port());
        }
        cluster.getAliveTabletServerList().forEach(node -> addresses.add(node.host() + ":" + node.port()));
        return addresses;
    }

    /** A {@code type} whose calls go to the object {@code target} picks from the current connection. */
    @SuppressWarnings("unchecked")
    private <T> T forwarding(Class<T> type, Function<Connection, T> target) {
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return objectMethod(proxy, method, args);
            }
            if (method.getName().equals("close") && method.getParameterCount() == 0) {
                return null; // the connection, not its users, owns what the proxy forwards to
            }
            try {
                return method.invoke(target.apply(current()), args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler);
    }

    private Object objectMethod(Object proxy, Method method, Object[] args) {
        switch (method.getName()) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            default:
                return "forwarding to the current Fluss connection of " + bootstrapServers;
        }
    }


    private static java.util.concurrent.ThreadFactory named(String prefix) {
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + THREADS.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
