package io.lakesync.server;

import io.lakesync.alert.AlertRoutes;
import io.lakesync.alert.Alerting;
import io.lakesync.alert.TableMetricsSource;
import io.lakesync.auth.Authenticator;
import io.lakesync.auth.JavalinAuth;
import io.lakesync.catalog.LakeCatalog;
import io.lakesync.catalog.LakeTableRoutes;
import io.lakesync.catalog.Prerequisites;
import io.lakesync.cluster.ClusterNode;
import io.lakesync.cluster.DeadInstanceTables;
import io.lakesync.cluster.InstanceRoutes;
import io.lakesync.cluster.LeaderLease;
import io.lakesync.cluster.Membership;
import io.lakesync.cluster.SharedActivityBoard;
import io.lakesync.cluster.SharedClaimLedger;
import io.lakesync.cluster.SharedLakeCommits;
import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.console.ConsoleRoutes;
import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.metrics.MetricsRoutes;
import io.lakesync.metrics.TableMetric;
import io.lakesync.metrics.TableMetricsCollector;
import io.lakesync.state.DatabaseKind;
import io.lakesync.state.StateStore;
import io.lakesync.status.ClusterObserver;
import io.lakesync.status.TableRoutes;
import io.lakesync.status.TableStatus;
import io.lakesync.status.TableStatusTracker;
import io.lakesync.switches.ServiceSwitchControl;
import io.lakesync.switches.SwitchRoutes;
import io.lakesync.switches.TableSwitches;
import io.lakesync.tiering.EngineHealth;
import io.lakesync.tiering.TieringListener;
import io.lakesync.tiering.TieringService;
import io.lakesync.tiering.capacity.CapacityQuotas;
import io.lakesync.tiering.capacity.ClaimLedger;
import io.lakesync.tiering.capacity.LocalClaimLedger;
import io.lakesync.tiering.lake.LakeTables;
import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.usage.UsageMeter;
import io.lakesync.usage.UsageRoutes;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One lakesync instance, the composition root: from one validated {@link LakeSyncConfig} it opens the
 * service state, connects to Fluss and the lake, starts the tiering engine (if the service switch is on),
 * the status tracker, alerting, the HTTP API with every capability's {@link HttpRoutes}, and last joins the
 * instances sharing the state ({@link ClusterNode}: heartbeats, the leader lease, the shared switch).
 *
 * <pre>
 *   [new] ── start(config) ──▶ check config, host, port ──▶ state, Fluss, lake ──▶ engine (if switched on)
 *                    │                                                                   │
 *                    │ a step fails: what started is closed, the error rethrown           ▼
 *                    ▼                                    status ──▶ alerts ──▶ HTTP ──▶ cluster ──▶ [running]
 *                [failed]                                                                           │ close()
 *                                        [closed] ◀── everything stopped in reverse order ◀─────────┘
 * </pre>
 */
public final class LakeSyncServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LakeSyncServer.class);
    /** Each prerequisite check may take this long: the first write of a cold JVM to a remote lake is slow. */
    private static final Duration PREREQUISITE_CHECK_TIMEOUT = Duration.ofMinutes(1);

    private final Deque<AutoCloseable> started;
    private final HttpApi http;
    private final TableStatusTracker tracker;

    private LakeSyncServer(Deque<AutoCloseable> started, HttpApi http, TableStatusTracker tracker) {
        this.started = started;
        this.http = http;
        this.tracker = tracker;
    }

    public static LakeSyncServer start(LakeSyncConfig config) throws Exception {
        return start(config, Clock.systemUTC());
    }

    /** Starts the instance; {@code clock} drives status, alerts and the uptime that {@code /health} reports. */
    public static LakeSyncServer start(LakeSyncConfig config, Clock clock) throws Exception {
        String bootstrapServers = config.flussBootstrapServers();
        HttpApi.requireCanListen(config);
        Authenticator authenticator = Authenticator.fromConfig(config);
        Deque<AutoCloseable> started = new ArrayDeque<>();
        try {
            StateStore state = push(started, StateStore.open(config, clock));
            LakeTables lakeTables = push(started, new LakeTables(config.lakeCatalogOptions()));
            SharedLakeCommits.check(state.kind(), lakeTables.commitSafety(), config.lakeCatalogOptions());
            Duration callTimeout = config.get(LakeSyncOptions.STATUS_CALL_TIMEOUT);
            Duration refreshInterval = config.get(LakeSyncOptions.STATUS_REFRESH_INTERVAL);
            // The process's one Fluss client: status, switches, the lake catalog and the engine share it.
            FlussClient fluss = push(started, FlussClient.connect(config.flussClientConfiguration(), callTimeout));
            LakeCatalog lakeCatalog = new LakeCatalog(fluss, lakeTables);

            String instanceId = instanceId(config);
            ServiceSwitchControl[] switchHolder = new ServiceSwitchControl[1];
            TableStatusTracker tracker =
                    push(started, new TableStatusTracker(
                            new ClusterObserver(fluss, lakeTables, clock),
                            new SharedActivityBoard(state, instanceId),
                            config.get(LakeSyncOptions.STATUS_REFRESH_PARALLELISM),
                            clock,
                            () -> switchHolder[0].isEnabled(),
                            config.get(LakeSyncOptions.STATUS_HISTORY_SIZE),
                            callTimeout,
                            refreshInterval.multipliedBy(unknownAfterRefreshes(config))));
            UsageMeter usage = push(started, new UsageMeter(state, usageSpool(config)));
            // The cluster node joins after the engine (it reads the engine's tables), so the engine reaches it here.
            AtomicReference<ClusterNode> clusterNode = new AtomicReference<>();
            TieringListener tablesTaken = new TieringListener() {
                @Override
                public void roundStarted(TableAssignment assignment) {
                    tableTaken(assignment);
                }

                @Override
                public void roundHeldBack(TableAssignment assignment, String reason) {
                    tableTaken(assignment);
                }

                private void tableTaken(TableAssignment assignment) {
                    ClusterNode node = clusterNode.get();
                    if (node != null) {
                        node.tableTaken(assignment);
                    }
                }
            };
            Duration instanceTimeout = clusterInstanceTimeout(config);
            Engine engine = push(started, new Engine(config, TieringListener.all(List.of(tracker, usage, tablesTaken)),
                    clock, claimLedger(started, state, instanceId, instanceTimeout, config),
                    new TieringService.SharedClients(fluss, lakeTables)));
            TableSwitches tableSwitches =
                    new TableSwitches(fluss, lakeCatalog, () -> switchHolder[0].isEnabled(), state);
            ServiceSwitchControl serviceSwitch =
                    new ServiceSwitchControl(
                            state.serviceSwitch(), new Prerequisites(fluss, lakeTables, PREREQUISITE_CHECK_TIMEOUT),
                            tableSwitches, engine);
            switchHolder[0] = serviceSwitch;
            serviceSwitch.startIfEnabled();
            tracker.start(refreshInterval);

            Membership membership = new Membership(state, instanceTimeout);
            ClusterNode node = new ClusterNode(instanceId, membership,
                    new LeaderLease(state, "cluster-duties", instanceTimeout), engine::heldTables, clock);
            clusterNode.set(node);
            node.everyHeartbeatAsLeader(
                    new DeadInstanceTables(membership, fluss.tieringCoordinator()));
            Alerting alerting = push(started, Alerting.create(state, config, metricsOf(tracker, clock), clock));
            alerting.start(node::isLeader);

            HttpApi http =
                    push(started, HttpApi.start(config, List.of(
                            app -> app.router.mount(router -> router.beforeMatched(new JavalinAuth(authenticator))),
                            new HealthRoutes(bootstrapServers, clock, () -> statusProblems(tracker, fluss), engine::health,
                                    authenticator),
                            new OpenApiRoutes(),
                            new TableRoutes(tracker),
                            new MetricsRoutes(new TableMetricsCollector(tracker::tables, clock),
                                    config.get(LakeSyncOptions.METRICS_REQUIRE_TOKEN)),
                            new SwitchRoutes(serviceSwitch, state.serviceSwitch(), tableSwitches),
                            new LakeTableRoutes(lakeCatalog),
                            new AlertRoutes(alerting),
                            new InstanceRoutes(node),
                            new ConsoleRoutes(refreshInterval),
                            new UsageRoutes(state, usage, config.get(LakeSyncOptions.BILLING_PROVISIONED_CU),
                                    CapacityQuotas.of(config), clock))));
            node.everyHeartbeat(() -> {
                try {
                    serviceSwitch.followSharedSwitch();
                } catch (Exception e) {
                    throw new IllegalStateException("Cannot follow the shared service switch: " + e, e);
                }
            });
            node.join(InetAddress.getLocalHost().getHostName(), http.url().toString(), LakeSyncVersion.get(),
                    config.get(LakeSyncOptions.TIERING_WORKERS));
            push(started, node).start(config.get(LakeSyncOptions.CLUSTER_HEARTBEAT_INTERVAL));
            LOG.info("lakesync service listening on {}, syncing Fluss cluster {}", http.url(), bootstrapServers);
            return new LakeSyncServer(started, http, tracker);
        } catch (Exception | Error e) {
            closeAll(started, e);
            throw e;
        }
    }

    /** Why the status is incomplete: what the tracker saw, and the tablet servers the connection's probe found silent. */
    private static List<String> statusProblems(TableStatusTracker tracker, FlussClient fluss) {
        List<String> problems = new ArrayList<>(tracker.problems());
        String silent = fluss.silentTabletServers();
        if (silent != null) {
            problems.add(silent);
        }
        return problems;
    }

    private static int unknownAfterRefreshes(LakeSyncConfig config) {
        int refreshes = config.get(LakeSyncOptions.STATUS_UNKNOWN_AFTER_REFRESHES);
        if (refreshes < 1) {
            throw new ConfigException("Config key '" + LakeSyncOptions.STATUS_UNKNOWN_AFTER_REFRESHES.key()
                    + "' must be at least 1, but is " + refreshes + ".");
        }
        return refreshes;
    }

    /**
     * Where the rounds claim their CUs: in the shared PostgreSQL state, so the quotas hold for every instance
     * together; on the single instance's SQLite state, in memory.
     */
    private static ClaimLedger claimLedger(
            Deque<AutoCloseable> started, StateStore state, String instanceId, Duration instanceTimeout,
            LakeSyncConfig config) {
        if (state.kind() == DatabaseKind.SQLITE) {
            return new LocalClaimLedger();
        }
        return push(started, new SharedClaimLedger(
                state, instanceId, instanceTimeout, config.get(LakeSyncOptions.QUOTA_CLAIM_TIMEOUT),
                config.get(LakeSyncOptions.QUOTA_CLAIM_RETRY_INTERVAL)));
    }

    /** Where this instance keeps the usage waiting for the state store: {@code <data.dir>/usage/unwritten}. */
    private static Path usageSpool(LakeSyncConfig config) {
        return Path.of(config.get(LakeSyncOptions.DATA_DIR)).toAbsolutePath().normalize().resolve("usage")
                .resolve("unwritten");
    }

    /** {@code cluster.instance-id}, or the host name with a random suffix. */
    private static String instanceId(LakeSyncConfig config) throws UnknownHostException {
        String configured = config.get(LakeSyncOptions.CLUSTER_INSTANCE_ID).trim();
        return configured.isEmpty()
                ? InetAddress.getLocalHost().getHostName() + "-" + UUID.randomUUID().toString().substring(0, 8)
                : configured;
    }

    /** {@code cluster.instance-timeout} (checked against the heartbeat in {@link LakeSyncConfig}), warning when failover is slow. */
    private static Duration clusterInstanceTimeout(LakeSyncConfig config) {
        Duration heartbeat = config.get(LakeSyncOptions.CLUSTER_HEARTBEAT_INTERVAL);
        Duration timeout = config.get(LakeSyncOptions.CLUSTER_INSTANCE_TIMEOUT);
        Duration failover = timeout.plus(heartbeat);
        Duration evaluation = config.get(LakeSyncOptions.ALERT_EVALUATION_INTERVAL);
        if (failover.compareTo(evaluation.multipliedBy(2)) > 0) {
            LOG.warn("Alert evaluation passes to another instance up to {} after its instance dies ('{}' plus '{}'), "
                    + "more than two evaluation intervals ('{}' = {})", failover,
                    LakeSyncOptions.CLUSTER_INSTANCE_TIMEOUT.key(), LakeSyncOptions.CLUSTER_HEARTBEAT_INTERVAL.key(),
                    LakeSyncOptions.ALERT_EVALUATION_INTERVAL.key(), evaluation);
        }
        return timeout;
    }

    /** What alert rules evaluate: each table's catalogue metrics, by id. */
    private static TableMetricsSource metricsOf(TableStatusTracker tracker, Clock clock) {
        return () -> {
            Instant now = clock.instant();
            Map<String, Map<String, Double>> snapshot = new HashMap<>();
            for (TableStatus status : tracker.tables()) {
                snapshot.put(status.name(), TableMetric.readAll(status, now));
            }
            return snapshot;
        };
    }

    /** The port the HTTP API listens on (the chosen one when {@code service.port} is 0). */
    public int port() {
        return http.port();
    }

    /** Base URL of the HTTP API, for example {@code http://127.0.0.1:8080}. */
    public URI url() {
        return http.url();
    }

    /** Every HTTP route this instance serves, as {@code "<METHOD> <path>"}. */
    public List<String> routes() {
        return http.routes();
    }

    /** The status of every table, as the API shows it. */
    public TableStatusTracker status() {
        return tracker;
    }

    /** Stops taking requests, then alerts, status and syncing (tables in progress go back to the coordinator). */
    @Override
    public void close() throws Exception {
        closeAll(started, null);
        LOG.info("lakesync service stopped");
    }

    private static <T extends AutoCloseable> T push(Deque<AutoCloseable> started, T closeable) {
        started.push(closeable);
        return closeable;
    }

    private static void closeAll(Deque<AutoCloseable> started, Throwable failure) throws Exception {
        Exception first = null;
        while (!started.isEmpty()) {
            try {
                started.pop().close();
            } catch (Exception e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                } else if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** The tiering engine as the service switch turns it on and off; a new engine for every start. */
    private static final class Engine implements ServiceSwitchControl.Engine, AutoCloseable {
        private final LakeSyncConfig config;
        private final TieringListener listener;
        private final Clock clock;
        private final ClaimLedger claims;
        private final TieringService.SharedClients clients;
        private volatile TieringService running;

        Engine(LakeSyncConfig config, TieringListener listener, Clock clock, ClaimLedger claims,
                TieringService.SharedClients clients) {
            this.config = config;
            this.listener = listener;
            this.clock = clock;
            this.claims = claims;
            this.clients = clients;
        }

        @Override
        public synchronized void start() throws Exception {
            if (running == null) {
                TieringService engine = new TieringService(config, listener, RoundHooks.NONE, clock, claims, clients);
                engine.start();
                running = engine;
            }
        }

        /** The tables the running engine holds now. */
        Set<TableAssignment> heldTables() {
            TieringService engine = running;
            return engine == null ? Set.of() : engine.activeTables();
        }

        /** The running engine's health; empty while the service is switched off. */
        Optional<EngineHealth> health() {
            TieringService engine = running;
            return engine == null ? Optional.empty() : Optional.of(engine.health());
        }

        @Override
        public synchronized void stop() throws Exception {
            if (running != null) {
                running.close();
                running = null;
            }
        }

        @Override
        public void close() throws Exception {
            stop();
        }
    }
}
