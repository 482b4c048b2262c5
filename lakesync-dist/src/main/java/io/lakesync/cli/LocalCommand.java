package io.lakesync.cli;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.fluss.FlussClient;
import io.lakesync.folder.FolderLock;
import io.lakesync.local.LocalFlussCluster;
import io.lakesync.local.LocalStackLock;
import io.lakesync.server.HttpApi;
import io.lakesync.server.LakeSyncServer;
import io.lakesync.server.LakeSyncVersion;
import io.lakesync.tiering.lake.LakeTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lakesync local}: the whole stack in this process on 127.0.0.1 (ZooKeeper, a Fluss coordinator and
 * tablet servers, a Paimon warehouse, the lakesync service), all kept in one data folder so the next start
 * resumes every table and row. Runs until Ctrl-C or SIGTERM, then stops the service, then the cluster.
 */
@Command(
        name = "local",
        mixinStandardHelpOptions = true,
        description = {
            "Starts ZooKeeper, Fluss, a Paimon warehouse and the lakesync service in this process, on 127.0.0.1.",
            "Data stays in the data folder: the next start resumes every table. Ctrl-C stops cleanly."
        })
final class LocalCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(LocalCommand.class);
    /** The service's stop bound, plus the Fluss servers and ZooKeeper stopping after it. */
    private static final Duration STOP_BOUND = ServeCommand.STOP_BOUND.multipliedBy(2);

    @Spec private CommandSpec spec;

    @Mixin private ConfigSource source;

    @Option(
            names = "--fluss-port",
            paramLabel = "N",
            description = "Sets local.coordinator.port, the Fluss bootstrap port (0: any free).")
    private Integer flussPort;

    @Option(
            names = "--tablet-servers",
            paramLabel = "N",
            description = "Sets local.tablet-servers: how many Fluss tablet servers the stack runs (1 to 9; with 3, "
                    + "every bucket has 3 replicas and a stopped server's leaders fail over).")
    private Integer tabletServers;

    @Option(
            names = "--lake",
            paramLabel = "disk|s3",
            description = "Sets local.lake: the warehouse in a folder of the data folder (disk, the default), or at "
                    + "s3://lake/warehouse on an S3-compatible server the stack starts on 127.0.0.1 (s3).")
    private String lake;

    @Option(names = "--demo", description = "Creates the example tables fluss.datalake_orders and fluss.datalake_clicks and streams changes into them, with a live status line per table.")
    private boolean demo;

    @Option(names = "--demo-rate", paramLabel = "N", defaultValue = "2000",
            description = "With --demo: changes per second written into each table (default: ${DEFAULT-VALUE}).")
    private int demoRate;

    /** The configuration the flags describe: the file, then {@code --set}, then the named flags. */
    LakeSyncConfig config() {
        Map<String, String> flags = new LinkedHashMap<>();
        if (flussPort != null) {
            flags.put(LakeSyncOptions.LOCAL_COORDINATOR_PORT.key(), String.valueOf(flussPort));
        }
        if (lake != null) {
            flags.put(LakeSyncOptions.LOCAL_LAKE.key(), lake);
        }
        if (tabletServers != null) {
            flags.put(LakeSyncOptions.LOCAL_TABLET_SERVERS.key(), String.valueOf(tabletServers));
        }
        return source.load(flags);
    }

    /** Without {@code auth.tokens}, the API gets an owner token kept in the data folder, where the CLI finds it. */
    private static LakeSyncConfig withLocalToken(LakeSyncConfig config, Path dataDir) throws IOException {
        if (config.isSet(LakeSyncOptions.AUTH_TOKENS)) {
            return config;
        }
        return config.with(Map.of(LakeSyncOptions.AUTH_TOKENS.key(), "local:owner:" + LocalToken.getOrCreate(dataDir)));
    }

    @Override
    public Integer call() throws Exception {
        LakeSyncConfig config = config();
        // Before the cluster's few seconds of start-up, so a busy service port fails at once.
        HttpApi.requireCanListen(config);
        Path dataDir = Path.of(config.get(LakeSyncOptions.DATA_DIR)).toAbsolutePath().normalize();
        try (FolderLock folder = LocalStackLock.acquire(dataDir)) {
            return run(withLocalToken(config, dataDir), dataDir);
        }
    }

    private int run(LakeSyncConfig config, Path dataDir) throws Exception {
        Path logFile = LogFile.attach(dataDir);
        StopSignal stop = StopSignal.install(STOP_BOUND);
        LOG.info("Starting the local stack in {}", dataDir);
        try (LocalFlussCluster cluster = LocalFlussCluster.start(config, Map.of());
                LakeSyncServer server = LakeSyncServer.start(cluster.serviceConfig(config))) {
            Map<String, String> rows = new LinkedHashMap<>();
            rows.put("Fluss bootstrap servers", cluster.bootstrapServers());
            rows.put("Fluss tablet servers", IntStream.range(0, cluster.tabletServerCount())
                    .mapToObj(index -> "127.0.0.1:" + cluster.tabletServerPort(index))
                    .collect(Collectors.joining(", ")));
            rows.put("ZooKeeper", "embedded, data in " + cluster.dataDir().resolve("zookeeper"));
            String s3Endpoint = cluster.lakeCatalogOptions().get("s3.endpoint");
            rows.put("Paimon warehouse", cluster.warehouseLocation() + (s3Endpoint == null ? ""
                    : "  (S3 server " + s3Endpoint + ", objects in " + cluster.dataDir().resolve("s3") + ")"));
            rows.put("Data folder", cluster.dataDir().toString());
            rows.put("Service URL", server.url() + "  (GET /health)");
            rows.put("Console", server.url() + "/  (sign in with the owner token below)");
            rows.put("Log file", logFile.toString());
            if (Files.exists(LocalToken.file(dataDir))) {
                rows.put("API token (owner)", LocalToken.file(dataDir) + "  (the CLI reads it from there)");
            }
            LocalServiceUrl.write(dataDir, server.url().toString());
            ReadyBanner.print(
                    spec.commandLine().getOut(), "lakesync " + LakeSyncVersion.get() + " local stack is ready", rows);
            if (demo) {
                try (FlussClient fluss = FlussClient.forCommand(cluster.clientConfiguration());
                        LakeTables lake = new LakeTables(cluster.lakeCatalogOptions());
                        Demo workload = new Demo(fluss, lake, server, spec.commandLine().getOut(), demoRate)) {
                    workload.start();
                    stop.await();
                }
            } else {
                stop.await();
            }
            LOG.info("Stopping: lakesync service, then Fluss and ZooKeeper");
        } finally {
            LocalServiceUrl.delete(dataDir);
        }
        LOG.info("Stopped; data kept in {}", dataDir);
        return 0;
    }
}
