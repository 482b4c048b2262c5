package io.lakesync.tiering;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.fluss.tiering.TieringCoordinator;
import io.lakesync.folder.FolderLock;
import io.lakesync.folder.Folders;
import io.lakesync.tiering.capacity.CapacityQuotas;
import io.lakesync.tiering.capacity.ClaimLedger;
import io.lakesync.tiering.capacity.LocalClaimLedger;
import io.lakesync.tiering.capacity.QuotaAdmission;
import io.lakesync.tiering.capacity.RoundMeter;
import io.lakesync.tiering.lake.LakeTables;
import io.lakesync.tiering.maintenance.MaintenanceDuty;
import io.lakesync.tiering.round.RoundEnvironment;
import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.tiering.round.TableRound;
import io.lakesync.tiering.warmup.ClientWarmUp;
import io.lakesync.tiering.warmup.WriteWarmUp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.annotation.Nullable;
import org.apache.fluss.config.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The native tiering engine of one lakesync instance. It takes part in the Fluss coordinator's lake-tiering
 * protocol exactly like Fluss's own Flink job, so any mix of lakesync instances (and the Flink job during a
 * migration) can serve one cluster, each table held by one of them at a time.
 *
 * <p>This class puts the engine together and runs it: it locks the data folder, clears spill files a killed
 * run left, connects to Fluss and the lake catalog, and runs the assigner loop of a {@link TieringEngine} (the
 * protocol) on its own thread; each held table follows its own lifecycle ({@link HeldTable}). On close, every
 * table not finished is reported failed so the coordinator hands it out again at once; after a crash, the
 * in-flight journal does the same on the next start.
 */
public final class TieringService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TieringService.class);
    private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(30);
    /** How long a heartbeat in flight at shutdown may take before it is interrupted (the coordinator is down). */
    private static final Duration ASSIGNER_GRACE = Duration.ofSeconds(5);

    /** Whether a {@link WriteWarmUp} has run in this JVM. */
    private static final AtomicBoolean WRITE_PATH_WARM = new AtomicBoolean();
    /** Whether a {@link ClientWarmUp} has run in this JVM. */
    private static final AtomicBoolean CLIENT_WARM = new AtomicBoolean();
    // About what 300 one-round tables ask before their first commit; a burst of a few seconds at most.
    private static final int CLIENT_WARM_UP_TABLES = 64;
    private static final int CLIENT_WARM_UP_REQUESTS = 900;
    private static final int CLIENT_WARM_UP_CONCURRENCY = 8;
    private static final Duration CLIENT_WARM_UP_TIME_LIMIT = Duration.ofSeconds(5);

    private final LakeSyncConfig config;
    private final TieringListener listener;
    private final RoundHooks hooks;
    private final Clock clock;
    private final EngineSettings settings;
    private final CapacityQuotas quotas;
    private final ClaimLedger claims;
    private final int bucketParallelism;
    private final boolean columnarRead;
    private final boolean columnarWrite;
    private final boolean columnarWritePrimaryKey;
    private final boolean warmUp;
    private final Path dataDir;
    private final Path workDir;

    private volatile boolean running;
    private FolderLock lock;
    /** The Fluss client and lake catalog of the process this engine runs in, which their owner closes. */
    public record SharedClients(FlussClient fluss, LakeTables lake) {}

    /** The process's clients when it shares them with the engine, else null: the engine opens its own. */
    private final @Nullable SharedClients shared;
    private FlussClient fluss;
    private TieringCoordinator coordinator;
    private LakeTables lakeTables;
    private ExecutorService readerThreads;
    private TieringEngine engine;
    private QuotaAdmission admission;
    private MaintenanceDuty maintenance;
    private Thread assigner;

    public TieringService(LakeSyncConfig config) {
        this(config, TieringListener.NONE, RoundHooks.NONE, Clock.systemUTC());
    }

    public TieringService(LakeSyncConfig config, TieringListener listener, RoundHooks hooks, Clock clock) {
        this(config, listener, hooks, clock, new LocalClaimLedger());
    }

    /** An engine whose rounds claim their CUs in {@code claims}, which other instances may share. */
    public TieringService(
            LakeSyncConfig config, TieringListener listener, RoundHooks hooks, Clock clock, ClaimLedger claims) {
        this(config, listener, hooks, clock, claims, null);
    }

    /** An engine that talks to Fluss and the lake through {@code shared}, the process's clients. */
    public TieringService(LakeSyncConfig config, TieringListener listener, RoundHooks hooks, Clock clock,
            ClaimLedger claims, @Nullable SharedClients shared) {
        this.shared = shared;
        this.config = config;
        this.claims = claims;
        this.listener = listener;
        this.hooks = hooks;
        this.clock = clock;
        this.settings = EngineSettings.of(config);
        this.quotas = CapacityQuotas.of(config);
        this.bucketParallelism = bucketParallelism(config);
        this.columnarRead = config.get(LakeSyncOptions.TIERING_COLUMNAR_READ);
        this.columnarWrite = config.get(LakeSyncOptions.TIERING_COLUMNAR_WRITE);
        this.columnarWritePrimaryKey = config.get(LakeSyncOptions.TIERING_COLUMNAR_WRITE_PRIMARY_KEY);
        this.warmUp = config.get(LakeSyncOptions.TIERING_WARM_UP);
        this.dataDir = Path.of(config.get(LakeSyncOptions.DATA_DIR)).toAbsolutePath();
        this.workDir = dataDir.resolve("tiering");
    }

    /**
     * Locks the data folder, connects to Fluss and the lake catalog, warms up the write path and the Fluss client
     * ({@code tiering.warm-up}) and starts syncing in the background. Fails if another engine uses the same data
     * folder.
     */
    public synchronized void start() throws Exception {
        if (running) {
            return;
        }
        config.flussBootstrapServers();
        lock = DataDirLock.acquire(dataDir, workDir);
        try {
            Path ioTmpDir = workDir.resolve("io-tmp");
            // Spill files of a run that was killed (nothing else deletes them); safe, as the data folder lock
            // keeps every other engine out.
            Folders.deleteRecursively(ioTmpDir);
            Files.createDirectories(ioTmpDir);
            fluss = shared != null ? shared.fluss() : FlussClient.connect(config.flussClientConfiguration());
            coordinator = fluss.tieringCoordinator();
            lakeTables = shared != null ? shared.lake() : new LakeTables(config.lakeCatalogOptions());
            // Metered, so each reader task's CPU time counts toward the round that started it.
            readerThreads = RoundMeter.metered(Executors.newCachedThreadPool(ExecutorScheduler.named("lakesync-reader")));
            ExecutorService maintenanceExecutor = Executors.newFixedThreadPool(
                    maintenanceThreads(config), ExecutorScheduler.named("lakesync-maintenance"));
            maintenance = new MaintenanceDuty(
                    Configuration.fromMap(config.toMap()),
                    fluss,
                    lakeTables,
                    ioTmpDir,
                    workDir.resolve("maintenance-schedule.properties"),
                    maintenanceExecutor,
                    MaintenanceDuty.delayedWriter(maintenanceExecutor),
                    clock);
            admission = new QuotaAdmission(quotas, claims, config.get(LakeSyncOptions.QUOTA_CLAIM_RETRY_INTERVAL));
            RoundRunner rounds =
                    (assignment, control) -> new TableRound(assignment, roundEnvironment(ioTmpDir), control).run();
            engine = new TieringEngine(
                    coordinator,
                    rounds,
                    FailureKind::of,
                    new ExecutorScheduler(settings.workers()),
                    new InFlightJournal(workDir.resolve("in-flight")),
                    maintenance.around(listener),
                    settings,
                    admission,
                    clock);
            if (warmUp) {
                warmUpWritePath(new WriteWarmUp(
                        workDir.resolve("warm-up"),
                        new WriteWarmUp.Writers(columnarWrite, columnarWritePrimaryKey),
                        clock));
                warmUpClient(new ClientWarmUp(
                        fluss,
                        CLIENT_WARM_UP_TABLES,
                        CLIENT_WARM_UP_REQUESTS,
                        CLIENT_WARM_UP_CONCURRENCY,
                        CLIENT_WARM_UP_TIME_LIMIT,
                        clock));
            }
        } catch (Exception | Error e) {
            closeResources();
            throw e;
        }
        running = true;
        TieringEngine started = engine;
        assigner = new Thread(() -> assignLoop(started), "lakesync-tiering-assigner");
        assigner.setDaemon(true);
        assigner.start();
    }

    /**
     * Whether the engine does its job: unhealthy, with the reason, once no heartbeat has reached the Fluss
     * coordinator for longer than the coordinator's tiering timeout (what {@code /health} reports).
     */
    public EngineHealth health() {
        return running ? engine.health() : new EngineHealth(true, null, null);
    }

    /** Tables this instance holds right now. */
    public Set<TableAssignment> activeTables() {
        return running ? engine.activeTables() : Set.of();
    }

    /**
     * Stops syncing. Rounds in progress are cancelled (a round already committing finishes its commit), and
     * every table not finished is reported failed so the coordinator hands it out again at once.
     */
    @Override
    public synchronized void close() throws Exception {
        if (!running) {
            return;
        }
        running = false;
        engine.stop();
        // A heartbeat in flight may bring a table: let it return, so that table goes back with the others.
        // Interrupted, its answer is lost and the coordinator keeps the table for its 2-minute timeout.
        assigner.join(ASSIGNER_GRACE.toMillis());
        if (assigner.isAlive()) {
            assigner.interrupt();
            assigner.join(TimeUnit.SECONDS.toMillis(10));
        }
        engine.shutdown(SHUTDOWN_GRACE);
        closeResources();
        LOG.info("Tiering service stopped");
    }

    /**
     * Runs {@code warmUp}, once per JVM (what it warms is the JVM's: loaded classes and compiled code, which a
     * later engine in the same process finds ready). Returns whether the JVM's write path is warm; a failure only
     * means the first rounds run cold.
     */
    static boolean warmUpWritePath(WriteWarmUp warmUp) {
        return warmUpOnce(WRITE_PATH_WARM, "the write path", () -> {
            WriteWarmUp.Result result = warmUp.run();
            return String.format("in %d ms (%d rows through the lake writers, %d lake commits)",
                    result.took().toMillis(), result.rows(), result.commits());
        });
    }

    /** Runs {@code warmUp} once per JVM, as {@link #warmUpWritePath} does; returns whether the client is warm. */
    static boolean warmUpClient(ClientWarmUp warmUp) {
        return warmUpOnce(CLIENT_WARM, "the Fluss client", () -> {
            ClientWarmUp.Result result = warmUp.run();
            return String.format("in %d ms (%d read-only requests about %d lake tables; %d answered with an error, "
                            + "such as no lake snapshot yet)",
                    result.took().toMillis(), result.requests(), result.tables(), result.failed());
        });
    }

    /** Runs {@code warmUp} (which returns what it did) unless {@code warm} says it ran; logs one line either way. */
    private static boolean warmUpOnce(AtomicBoolean warm, String what, Callable<String> warmUp) {
        if (warm.get()) {
            return true;
        }
        try {
            String done = warmUp.call();
            warm.set(true);
            LOG.info("Warmed up {} {}", what, done);
            return true;
        } catch (Exception e) {
            LOG.warn("Warming up {} failed, so the first rounds run cold: {}", what, e.toString());
            return false;
        }
    }

    private void assignLoop(TieringEngine engine) {
        try {
            while (engine.isRunning()) {
                if (!engine.step()) {
                    engine.awaitWork(engine.idleWait());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * What a round works with. The connection follows Fluss servers that restart on new addresses, so a round
     * started after a move reaches them.
     */
    private RoundEnvironment roundEnvironment(Path ioTmpDir) {
        return new RoundEnvironment(
                fluss,
                coordinator,
                engine::coordinatorEpoch,
                lakeTables,
                readerThreads,
                bucketParallelism,
                settings.idleReadTimeout(),
                columnarRead,
                columnarWrite,
                columnarWritePrimaryKey,
                ioTmpDir,
                clock,
                hooks);
    }

    private void closeResources() throws Exception {
        try {
            if (admission != null) {
                admission.close();
            }
            if (maintenance != null) {
                maintenance.close();
            }
            if (readerThreads != null) {
                readerThreads.shutdownNow();
            }
            if (shared == null && lakeTables != null) {
                lakeTables.close();
            }
            if (shared == null && fluss != null) {
                fluss.close();
            }
        } finally {
            admission = null;
            maintenance = null;
            readerThreads = null;
            lakeTables = null;
            fluss = null;
            lock.close();
        }
    }

    private static int maintenanceThreads(LakeSyncConfig config) {
        int threads = config.get(LakeSyncOptions.MAINTENANCE_THREADS);
        if (threads < 1) {
            throw new IllegalArgumentException(
                    "Config key '" + LakeSyncOptions.MAINTENANCE_THREADS.key() + "' must be at least 1, but is "
                            + threads + ".");
        }
        return threads;
    }

    private static int bucketParallelism(LakeSyncConfig config) {
        int configured = config.get(LakeSyncOptions.TIERING_BUCKET_PARALLELISM);
        if (configured < 0) {
            throw new IllegalArgumentException(
                    "Config key '" + LakeSyncOptions.TIERING_BUCKET_PARALLELISM.key() + "' must be 0 (one per core) "
                            + "or more, but is " + configured + ".");
        }
        return configured == 0 ? Runtime.getRuntime().availableProcessors() : configured;
    }
}
