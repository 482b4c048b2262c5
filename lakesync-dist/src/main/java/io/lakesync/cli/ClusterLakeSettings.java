package io.lakesync.cli;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.errors.ErrorMessages;
import io.lakesync.fluss.FlussClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lake a Fluss cluster tiers into, as its servers are configured: {@code datalake.format} and
 * {@code datalake.paimon.*}, read with {@code Admin#describeClusterConfigs}. So {@code serve} needs only
 * {@code fluss.bootstrap.servers}; lake keys given to lakesync win, and one that differs from the cluster's is
 * named at start, since Fluss creates the lake tables lakesync writes.
 */
final class ClusterLakeSettings {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterLakeSettings.class);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
    private static final String FORMAT_KEY = LakeSyncOptions.DATALAKE_FORMAT.key();
    private static final String WAREHOUSE_KEY = LakeSyncOptions.LAKE_PREFIX + "warehouse";
    /** Words in a key whose value is never logged: s3.access-key, jdbc.password, a token, a credentials file... */
    private static final List<String> SECRET_WORDS = List.of("password", "secret", "key", "token", "credential");
    private static final String BOOTSTRAP_KEY = LakeSyncOptions.FLUSS_PREFIX + "bootstrap.servers";

    private ClusterLakeSettings() {}

    /** {@code config} with the cluster's lake keys added under its own; unchanged without bootstrap servers. */
    static LakeSyncConfig apply(LakeSyncConfig config) {
        String bootstrap = config.flussClientOptions().get("bootstrap.servers");
        if (bootstrap == null || bootstrap.isBlank()) {
            return config; // the service's start names the missing key
        }
        Map<String, String> cluster;
        try {
            cluster = read(config);
        } catch (Exception e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            String reason = cause instanceof TimeoutException ? "no answer within " + READ_TIMEOUT.toSeconds() + " s"
                    : ErrorMessages.rootMessage(e);
            if (config.lakeCatalogOptions().containsKey("warehouse")) {
                LOG.warn("Cannot read the lake settings of the Fluss cluster at {} ({}); using the {}* keys given",
                        bootstrap, reason, LakeSyncOptions.LAKE_PREFIX);
                return config;
            }
            throw new IllegalStateException("Cannot reach the Fluss cluster at " + bootstrap + " ('" + BOOTSTRAP_KEY
                    + "') to read its lake settings: " + reason + ". Check the address and "
                    + "that the cluster runs, or set '" + WAREHOUSE_KEY + "' (and the lake's other "
                    + LakeSyncOptions.LAKE_PREFIX + "* keys) yourself.");
        }
        return merge(config, cluster, bootstrap);
    }

    /** {@code config} with {@code cluster}'s lake keys (the Fluss server config) added under its own. */
    static LakeSyncConfig merge(LakeSyncConfig config, Map<String, String> cluster, String bootstrap) {
        String format = cluster.get(FORMAT_KEY);
        if (format == null) {
            if (config.lakeCatalogOptions().containsKey("warehouse")) {
                return config;
            }
            throw new ConfigException("Missing config key '" + WAREHOUSE_KEY + "': the Fluss cluster at " + bootstrap
                    + " has no lake ('" + FORMAT_KEY + "' is not in its server config), so set the lake's keys "
                    + "here: '" + WAREHOUSE_KEY + "' and, for a catalog other than files, '"
                    + LakeSyncOptions.LAKE_PREFIX + "metastore' and its options, the same as the Fluss servers get "
                    + "when they enable the lake.");
        }
        if (!"paimon".equals(format)) {
            throw new ConfigException("The Fluss cluster at " + bootstrap + " tiers into '" + format + "' ('"
                    + FORMAT_KEY + "' in its server config); lakesync tiers into Paimon only.");
        }
        Map<String, String> given = config.lakeCatalogOptions();
        Map<String, String> added = new TreeMap<>();
        cluster.forEach((key, value) -> {
            if (key.startsWith(LakeSyncOptions.LAKE_PREFIX)
                    && !given.containsKey(key.substring(LakeSyncOptions.LAKE_PREFIX.length()))) {
                added.put(key, value);
            }
        });
        mismatches(given, cluster).forEach(mismatch -> LOG.warn("{} on the Fluss cluster at {}; lakesync uses its "
                + "own, while Fluss creates the lake tables with the cluster's", mismatch, bootstrap));
        if (!added.isEmpty()) {
            LOG.info("Lake settings from the Fluss cluster at {}: {}", bootstrap, added.entrySet().stream()
                    .map(e -> e.getKey() + "=" + shown(e.getKey(), e.getValue()))
                    .collect(Collectors.joining(", ")));
        }
        return config.with(added);
    }

    /** One sentence per lake key given to lakesync with another value in the cluster's config. */
    static List<String> mismatches(Map<String, String> given, Map<String, String> cluster) {
        List<String> mismatches = new ArrayList<>();
        given.forEach((option, own) -> {
            String key = LakeSyncOptions.LAKE_PREFIX + option;
            String theirs = cluster.get(key);
            if (theirs != null && !theirs.equals(own)) {
                mismatches.add("Config key '" + key + "' is " + shown(key, own) + " here but " + shown(key, theirs));
            }
        });
        return mismatches;
    }

    private static Map<String, String> read(LakeSyncConfig config) throws Exception {
        try (FlussClient fluss = FlussClient.forCommand(config.flussClientConfiguration(), READ_TIMEOUT)) {
            return fluss.clusterConfigs().get();
        }
    }

    /** A value for the log: quoted, or hidden when the key names a secret. */
    private static String shown(String key, String value) {
        String lower = key.toLowerCase(Locale.ROOT);
        boolean secret = SECRET_WORDS.stream().anyMatch(lower::contains);
        return secret ? "(hidden)" : "'" + value + "'";
    }
}
