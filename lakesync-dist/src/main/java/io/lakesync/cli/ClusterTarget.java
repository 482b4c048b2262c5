package io.lakesync.cli;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.local.LocalFlussCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.fluss.config.ConfigOptions;
import picocli.CommandLine.Option;

/**
 * The Fluss cluster and Paimon lake a command reads directly (not through the service): the service's own
 * config file and {@code --set} pairs, the lake being the cluster's own unless given ({@link ClusterLakeSettings});
 * without {@code fluss.bootstrap.servers} in them, the local stack of the data folder (the coordinator port it
 * last listened on, and its warehouse).
 */
final class ClusterTarget {

    @Option(names = "--config", paramLabel = "FILE",
            description = "The lakesync config file naming the Fluss cluster and the lake; default: the local stack.")
    private Path file;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Sets any config key, over the file; repeatable. "
            + "KEY=@FILE reads the value from FILE: give secrets so, never on the command line.")
    private Map<String, String> set = new LinkedHashMap<>();

    /** The validated configuration, its Fluss bootstrap servers and lake filled in for a local stack in {@code dataDir}. */
    LakeSyncConfig load(Path dataDir) {
        Map<String, String> overrides = new LinkedHashMap<>(set);
        overrides.putIfAbsent(LakeSyncOptions.DATA_DIR.key(), dataDir.toString());
        LakeSyncConfig config = LakeSyncConfig.load(file, overrides);
        if (config.flussClientOptions().containsKey(ConfigOptions.BOOTSTRAP_SERVERS.key())) {
            return ClusterLakeSettings.apply(config);
        }
        Path localData = Path.of(config.get(LakeSyncOptions.DATA_DIR)).toAbsolutePath().normalize();
        Map<String, String> local = new LinkedHashMap<>();
        local.put(LakeSyncOptions.FLUSS_PREFIX + ConfigOptions.BOOTSTRAP_SERVERS.key(),
                "127.0.0.1:" + localCoordinatorPort(config));
        LakeSyncConfig stack = config.with(local);
        if (!config.lakeCatalogOptions().isEmpty()) {
            return stack; // a configured lake (a JDBC catalog, say) is the stack's too
        }
        try {
            // The running stack's servers know its lake: a folder, or its own S3 server (local.lake = s3).
            return ClusterLakeSettings.apply(stack);
        } catch (IllegalStateException stackNotRunning) {
            return stack.with(Map.of(
                    LakeSyncOptions.LAKE_PREFIX + "metastore", "filesystem",
                    LakeSyncOptions.LAKE_PREFIX + "warehouse", localData.resolve("warehouse").toString()));
        }
    }

    private static int localCoordinatorPort(LakeSyncConfig config) {
        try {
            return LocalFlussCluster.clientCoordinatorPort(config);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the local stack's remembered ports in "
                    + config.get(LakeSyncOptions.DATA_DIR) + ": " + e.getMessage(), e);
        }
    }
}
