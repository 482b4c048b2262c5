package io.lakesync.server;

import io.lakesync.alert.AlertRoutes;
import io.lakesync.alert.Alerting;
import io.lakesync.alert.TableMetric;
import io.lakesync.alert.TableMetricsSource;
import io.lakesync.auth.Authenticator;
import io.lakesync.auth.JavalinAuth;
import io.lakesync.catalog.LakeCatalog;
import io.lakesync.catalog.LakeTableRoutes;
import io.lakesync.catalog.Prerequisites;
import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.metrics.MetricsRoutes;
import io.lakesync.metrics.TableMetricsCollector;
import io.lakesync.state.StateStore;
import io.lakesync.status.ClusterObserver;
import io.lakesync.status.TableRoutes;
import io.lakesync.status.TableState;
import io.lakesync.status.TableStatus;
import io.lakesync.status.TableStatusTracker;
import io.lakesync.switches.ServiceSwitchControl;
import io.lakesync.switches.SwitchRoutes;
import io.lakesync.switches.TableSwitches;
import io.lakesync.tiering.EngineHealth;
import io.lakesync.tiering.TieringListener;
import io.lakesync.tiering.TieringService;
import io.lakesync.tiering.connection.ReconnectingConnection;
import io.lakesync.tiering.lake.LakeTables;
import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.usage.UsageMeter;
import io.lakesync.usage.UsageRoutes;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.config.ConfigOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One lakesync instance, the composition root: from one validated {@link LakeSyncConfig} it opens the
 * service state, connects to Fluss and the lake, starts the tiering engine (if the service switch is on),
 * the status tracker, alerting, and the HTTP API with every capability's {@link HttpRoutes}.
 *
 * <pre>
 *   [new] ── start(config) ──▶ check config, host, port ──▶ state, Fluss, lake ──▶ engine (if switched on)
 *                    │                                                                   │
 *                    │ a step fails: what started is closed, the error rethrown           ▼
 *                    ▼                                              status ──▶ alerts ──▶ HTTP ──▶ [running]
 *                [failed]                                                                           │ close()
 *                                        [closed] ◀── everything stopped in reverse order ◀─────────┘
 * </pre>
 */
public final class LakeSyncServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LakeSyncServer.class);
    /** Each prerequisite check may take this long: the first write of a cold JVM to a remote lake is slow. */
    private static final Duration PREREQUISITE_CHECK_TIMEOUT = Duration.ofMinutes(1);
    private static final String BOOTSTRAP_KEY = LakeSyncOptions.FLUSS_PREFIX + ConfigOptions.BOOTSTRAP_SERVERS.key();

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
        String bootstrapServers = config.flussClientOptions().get(ConfigOptions.BOOTSTRAP_SERVERS.key());
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new ConfigException(
                    "Missing config key '" + BOOTSTRAP_KEY + "': the address of the Fluss cluster to sync from, "
                            + "for example '" + BOOTSTRAP_KEY + ": fluss-coordinator:9123'.");
        }
        HttpApi.requireCanListen(config);
        Authenticator authenticator = Authenticator.fromConfig(config);
        Deque<AutoCloseable> started = new ArrayDeque<>();
        try {
            StateStore state = push(started, StateStore.open(config, clock));
            Duration callTimeout = config.get(LakeSyncOptions.STATUS_CALL_TIMEOUT);
            Duration refreshInterval = config.get(LakeSyncOptions.STATUS_REFRESH_INTERVAL);
            ReconnectingConnection connection = push(started, ReconnectingConnection.open(
                    config.flussClientConfiguration(), ReconnectingConnection.DEFAULT_CHECK_INTERVAL, callTimeout));
            LakeTables lakeTables = push(started, new LakeTables(config.lakeCatalogOptions()));
            LakeCatalog lakeCatalog = new LakeCatalog(connection, lakeTables);

            ServiceSwitchControl[] switchHolder = new ServiceSwitchControl[1];
            TableStatusTracker tracker =
                    push(started, new TableStatusTracker(
                            new ClusterObserver(connection, lakeTables, clock),
                            clock,
                            () -> switchHolder[0].isEnabled(),
                            config.get(LakeSyncOptions.STATUS_HISTORY_SIZE),
                            callTimeout,
                            refreshInterval.multipliedBy(unknownAfterRefreshes(config))));
            UsageMeter usage = push(started, new UsageMeter(state));
            Engine engine = push(started, new Engine(config, TieringListener.all(List.of(tracker, usage)), clock));
            TableSwitches tableSwitches =
                    new TableSwitches(connection.getAdmin(), lakeCatalog, () -> switchHolder[0].isEnabled(), state);
            ServiceSwitchControl serviceSwitch =
                    new ServiceSwitchControl(
                            state.serviceSwitch(), new Prerequisites(connection.getAdmin(), lakeTables, PREREQUISITE_CHECK_TIMEOUT),
                            tableSwitches, engine);
            switchHolder[0] = serviceSwitch;
            serviceSwitch.startIfEnabled();
            tracker.start(refreshInterval);

            Alerting alerting = push(started, Alerting.create(state, config, metricsOf(tracker, clock), clock));
            alerting.start();

            HttpApi http =
                    push(started, HttpApi.start(config, List.of(
                            app -> app.router.mount(router -> router.beforeMatched(new JavalinAuth(authenticator))),
                            new HealthRoutes(bootstrapServers, clock, tracker::problems, engine::health),
                            new OpenApiRoutes(),
                            new TableRoutes(tracker),
                            new MetricsRoutes(new TableMetricsCollector(tracker::tables, clock)),
                            new SwitchRoutes(serviceSwitch, state.serviceSwitch(), tableSwitches),
                            new LakeTableRoutes(lakeCatalog),
                            new AlertRoutes(alerting),
                            new UsageRoutes(state, usage, config.get(LakeSyncOptions.BILLING_PROVISIONED_CU), clock))));
            LOG.info("lakesync service listening on {}, syncing Fluss cluster {}", http.url(), bootstrapServers);
            return new LakeSyncServer(started, http, tracker);
        } catch (Exception | Error e) {
            closeAll(started, e);
            throw e;
        }
    }

    private static int unknownAfterRefreshes(LakeSyncConfig config) {
        int refreshes = config.get(LakeSyncOptions.STATUS_UNKNOWN_AFTER_REFRESHES);
        if (refreshes < 1) {
            throw new ConfigException("Config key '" + LakeSyncOptions.STATUS_UNKNOWN_AFTER_REFRESHES.key()
                    + "' must be at least 1, but is " + refreshes + ".");
        }
        return refreshes;
    }

    /** What alert rules evaluate: each table's status as metric id to value. */
    private static TableMetricsSource metricsOf(TableStatusTracker tracker, Clock clock) {
        return () -> {
            Map<String, Map<String, Double>> snapshot = new HashMap<>();
            for (TableStatus status : tracker.tables()) {
                Map<String, Double> metrics = new HashMap<>();
                metrics.put(TableMetric.SYNC_LATENCY_MS.id(), (double) status.syncLatency().toMillis());
                metrics.put(TableMetric.CHECKPOINT_AGE_MS.id(), (double) status.checkpointAge().toMillis());
                metrics.put(TableMetric.PENDING_RECORDS.id(), (double) status.pendingRecords());
                metrics.put(TableMetric.FAILURES_TOTAL.id(), (double) status.activity().failures());
                metrics.put(TableMetric.ROUNDS_TOTAL.id(), (double) status.activity().rounds());
                metrics.put(TableMetric.ROWS_TIERED_TOTAL.id(), (double) status.activity().rowsTiered());
                metrics.put(TableMetric.OBSERVATION_AGE_MS.id(),
                        (double) Math.max(0, Duration.between(status.observedAt(), clock.instant()).toMillis()));
                metrics.put(TableMetric.STATE_UNKNOWN.id(), status.state() == TableState.UNKNOWN ? 1.0 : 0.0);
                if (status.activity().lastRoundDuration() != null) {
                    metrics.put(TableMetric.TIER_DURATION_MS.id(), (double) status.activity().lastRoundDuration().toMillis());
                }
                snapshot.put(status.name(), metrics);
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
        private volatile TieringService running;

        Engine(LakeSyncConfig config, TieringListener listener, Clock clock) {
            this.config = config;
            this.listener = listener;
            this.clock = clock;
        }

        @Override
        public synchronized void start() throws Exception {
            if (running == null) {
                TieringService engine = new TieringService(config, listener, RoundHooks.NONE, clock);
                engine.start();
                running = engine;
            }
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
