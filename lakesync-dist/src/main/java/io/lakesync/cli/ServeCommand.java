package io.lakesync.cli;

import io.lakesync.auth.Authenticator;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.server.HttpApi;
import io.lakesync.server.LakeSyncServer;
import io.lakesync.server.LakeSyncVersion;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code lakesync serve}: production mode, the lakesync service against an existing Fluss cluster. */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        description = {
            "Runs the lakesync service against an existing Fluss cluster (config key fluss.bootstrap.servers).",
            "The lake (datalake.paimon.*) is the cluster's own unless given here.",
            "Ctrl-C or SIGTERM stops cleanly."
        })
final class ServeCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);
    /** How long a stop may take: tables are handed back, the last status and usage written. */
    static final Duration STOP_BOUND = Duration.ofSeconds(30);

    @Spec private CommandSpec spec;

    @Mixin private ConfigSource source;

    @Override
    public Integer call() throws Exception {
        LakeSyncConfig given = source.load(Map.of());
        Path dataDir = Path.of(given.get(LakeSyncOptions.DATA_DIR)).toAbsolutePath().normalize();
        Path logFile = LogFile.attach(dataDir);
        // What needs no server first: a busy port or a bad token is a usage error whatever the cluster answers.
        HttpApi.requireCanListen(given);
        Authenticator.fromConfig(given);
        LakeSyncConfig config = ClusterLakeSettings.apply(given);
        StopSignal stop = StopSignal.install(STOP_BOUND);
        try (LakeSyncServer server = LakeSyncServer.start(config)) {
            Map<String, String> rows = new LinkedHashMap<>();
            rows.put("Fluss bootstrap servers", config.flussClientOptions().get("bootstrap.servers"));
            rows.put("Paimon warehouse", config.lakeCatalogOptions().get("warehouse"));
            rows.put("Service URL", server.url() + "  (GET /health)");
            rows.put("Console", server.url() + "/  (sign in with an API token from auth.tokens)");
            rows.put("Data folder", dataDir.toString());
            rows.put("Log file", logFile.toString());
            ReadyBanner.print(spec.commandLine().getOut(), "lakesync " + LakeSyncVersion.get() + " is ready", rows);
            stop.await();
            LOG.info("Stopping the lakesync service");
        }
        return 0;
    }
}
