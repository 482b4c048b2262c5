package io.lakesync.config;

import io.lakesync.errors.ErrorMessages;
import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.fluss.config.ConfigOption;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.utils.TimeUtils;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The validated configuration of one lakesync process: a YAML file (nested maps or dotted keys) overlaid
 * with command-line overrides. Every key must be a {@link LakeSyncOptions} option or carry one of its
 * passthrough prefixes; anything else, or a value of the wrong type, fails at load time with a message that
 * names the key.
 */
public final class LakeSyncConfig {

    private static final Set<String> FLUSS_CLIENT_KEYS = flussOptionKeys();
    private static final String HIDDEN_VALUE = "(not shown: a secret or read from a file)";

    private final Configuration options;
    private final Map<String, String> flussClientOptions;
    private final Map<String, String> lakeOptions;

    private LakeSyncConfig(
            Configuration options, Map<String, String> flussClientOptions, Map<String, String> lakeOptions) {
        this.options = options;
        this.flussClientOptions = Collections.unmodifiableMap(flussClientOptions);
        this.lakeOptions = Collections.unmodifiableMap(lakeOptions);
    }

    /** Defaults only. */
    public static LakeSyncConfig defaults() {
        return fromMap(Map.of(), "defaults");
    }

    /**
     * Loads {@code file} (which may be null for none) and applies {@code overrides} on top. In both, a value
     * {@code @FILE} is the content of that file (see {@link FileReferences}), the way to give secrets.
     */
    public static LakeSyncConfig load(Path file, Map<String, String> overrides) {
        Map<String, String> merged = new LinkedHashMap<>();
        Set<String> readFromFiles = new HashSet<>();
        String source = "command line";
        if (file != null) {
            FileReferences.Resolved fromYaml = FileReferences.resolve(readYaml(file), file.toString());
            merged.putAll(fromYaml.values());
            readFromFiles.addAll(fromYaml.readFromFiles());
            source = file + " or the command line";
        }
        FileReferences.Resolved fromCommandLine = FileReferences.resolve(overrides, "command line");
        merged.putAll(fromCommandLine.values());
        fromCommandLine.values().keySet().forEach(readFromFiles::remove);
        readFromFiles.addAll(fromCommandLine.readFromFiles());
        return fromMap(merged, source, readFromFiles);
    }

    /** Validates flat {@code key -> value} pairs; {@code source} says where they came from, for errors. */
    public static LakeSyncConfig fromMap(Map<String, String> raw, String source) {
        return fromMap(raw, source, Set.of());
    }

    /** As {@link #fromMap(Map, String)}; the values of {@code hidden} keys are never repeated in an error. */
    private static LakeSyncConfig fromMap(Map<String, String> raw, String source, Set<String> hidden) {
        Map<String, ConfigOption<?>> declared = new LinkedHashMap<>();
        for (ConfigOption<?> option : LakeSyncOptions.all()) {
            declared.put(option.key(), option);
        }
        Configuration options = new Configuration();
        Map<String, String> fluss = new TreeMap<>();
        Map<String, String> lake = new TreeMap<>();
        for (Map.Entry<String, String> entry : raw.entrySet()) {
            String key = entry.getKey();
            String value = entry.getValue();
            if (declared.containsKey(key)) {
                options.setString(key, value);
            } else if (key.startsWith(LakeSyncOptions.LAKE_PREFIX)
                    && key.length() > LakeSyncOptions.LAKE_PREFIX.length()) {
                lake.put(key.substring(LakeSyncOptions.LAKE_PREFIX.length()), value);
            } else if (key.startsWith(LakeSyncOptions.FLUSS_PREFIX)) {
                String flussKey = key.substring(LakeSyncOptions.FLUSS_PREFIX.length());
                if (!FLUSS_CLIENT_KEYS.contains(flussKey)) {
                    throw new ConfigException(
                            "Unknown config key '" + key + "' in " + source + ": '" + flussKey
                                    + "' is not a Fluss client option (see Fluss ConfigOptions).");
                }
                fluss.put(flussKey, value);
            } else {
                throw new ConfigException(
                        "Unknown config key '" + key + "' in " + source + ". Known keys: "
                                + String.join(", ", declared.keySet()) + ", plus "
                                + LakeSyncOptions.FLUSS_PREFIX + "<fluss client option> and "
                                + LakeSyncOptions.LAKE_PREFIX + "<paimon catalog option>.");
            }
        }
        for (ConfigOption<?> option : declared.values()) {
            String problem;
            try {
                problem = LakeSyncOptions.invalidBecause(option, options.get(option));
            } catch (RuntimeException e) {
                problem = ErrorMessages.rootMessage(e);
            }
            if (problem != null) {
                String value = raw.get(option.key());
                boolean secret = isHidden(option.key(), hidden);
                throw new ConfigException(
                        "Invalid value " + (secret ? HIDDEN_VALUE : "'" + value + "'") + " for config key '"
                                + option.key() + "' in " + source + ": "
                                + (secret && !value.isEmpty() ? problem.replace(value, HIDDEN_VALUE) : problem)
                                + ". Default: "
                                + displayed(option.defaultValue()) + ".");
            }
        }
        Duration heartbeat = options.get(LakeSyncOptions.CLUSTER_HEARTBEAT_INTERVAL);
        Duration instanceTimeout = options.get(LakeSyncOptions.CLUSTER_INSTANCE_TIMEOUT);
        if (instanceTimeout.compareTo(heartbeat.multipliedBy(2)) < 0) {
            throw new ConfigException(
                    "Invalid value '" + displayed(instanceTimeout) + "' for config key '"
                            + LakeSyncOptions.CLUSTER_INSTANCE_TIMEOUT.key() + "' in " + source + ": it must be at least "
                            + "twice '" + LakeSyncOptions.CLUSTER_HEARTBEAT_INTERVAL.key() + "' (" + displayed(heartbeat)
                            + "), or an instance would count as dead between two of its heartbeats.");
        }
        String format = options.get(LakeSyncOptions.DATALAKE_FORMAT);
        if (!"paimon".equals(format)) {
            throw new ConfigException(
                    "Invalid value " + (isHidden(LakeSyncOptions.DATALAKE_FORMAT.key(), hidden) ? HIDDEN_VALUE
                            : "'" + format + "'") + " for config key '"
                            + LakeSyncOptions.DATALAKE_FORMAT.key() + "' in " + source
                            + ": only 'paimon' is supported.");
        }
        return new LakeSyncConfig(options, fluss, lake);
    }

    public <T> T get(ConfigOption<T> option) {
        return options.get(option);
    }

    /** Whether the option was set explicitly (file or command line) rather than left at its default. */
    public boolean isSet(ConfigOption<?> option) {
        return options.containsKey(option.key());
    }

    /** A copy with {@code overrides} applied and validated again. */
    public LakeSyncConfig with(Map<String, String> overrides) {
        Map<String, String> merged = toMap();
        merged.putAll(overrides);
        return fromMap(merged, "configuration");
    }

    /** Fluss client options with the {@code fluss.} prefix stripped, ready for a Fluss {@code Configuration}. */
    public Configuration flussClientConfiguration() {
        return Configuration.fromMap(flussClientOptions);
    }

    public Map<String, String> flussClientOptions() {
        return flussClientOptions;
    }

    /** {@code fluss.bootstrap.servers}: the address of the Fluss cluster to sync from; refused when missing. */
    public String flussBootstrapServers() {
        String servers = flussClientOptions.get(ConfigOptions.BOOTSTRAP_SERVERS.key());
        if (servers == null || servers.isBlank()) {
            String key = LakeSyncOptions.FLUSS_PREFIX + ConfigOptions.BOOTSTRAP_SERVERS.key();
            throw new ConfigException("Missing config key '" + key + "': the address of the Fluss cluster to sync "
                    + "from, for example '" + key + ": fluss-coordinator:9123'.");
        }
        return servers;
    }

    /** Paimon catalog options with the {@code datalake.paimon.} prefix stripped. */
    public Map<String, String> lakeCatalogOptions() {
        return lakeOptions;
    }

    /** Every explicitly set key in its file form, so the configuration can be written back or copied. */
    public Map<String, String> toMap() {
        Map<String, String> all = new TreeMap<>(options.toMap());
        flussClientOptions.forEach((k, v) -> all.put(LakeSyncOptions.FLUSS_PREFIX + k, v));
        lakeOptions.forEach((k, v) -> all.put(LakeSyncOptions.LAKE_PREFIX + k, v));
        return all;
    }

    private static Map<String, String> readYaml(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ConfigException("Config file " + file + " does not exist or is not a file.");
        }
        Object document;
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            document = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
        } catch (YAMLException e) {
            throw new ConfigException("Config file " + file + " is not valid YAML: " + e.getMessage());
        } catch (IOException e) {
            throw new ConfigException("Cannot read config file " + file + ": " + e.getMessage());
        }
        Map<String, String> flat = new LinkedHashMap<>();
        if (document == null) {
            return flat;
        }
        if (!(document instanceof Map)) {
            throw new ConfigException("Config file " + file + " must hold a map of keys to values.");
        }
        flatten("", (Map<?, ?>) document, flat, file);
        return flat;
    }

    private static void flatten(String prefix, Map<?, ?> map, Map<String, String> out, Path file) {
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            String key = prefix + entry.getKey();
            Object value = entry.getValue();
            if (value instanceof Map) {
                flatten(key + ".", (Map<?, ?>) value, out, file);
            } else if (value instanceof List) {
                throw new ConfigException(
                        "Config key '" + key + "' in " + file + " holds a list; give a single value.");
            } else if (value == null) {
                throw new ConfigException("Config key '" + key + "' in " + file + " has no value.");
            } else {
                out.put(key, String.valueOf(value));
            }
        }
    }

    /** Whether an error must not repeat the value of {@code key}: a secret, or read from a file. */
    private static boolean isHidden(String key, Set<String> readFromFiles) {
        return readFromFiles.contains(key) || LakeSyncOptions.isSecret(key);
    }

    private static String displayed(Object value) {
        return value instanceof Duration duration ? TimeUtils.formatWithHighestUnit(duration) : String.valueOf(value);
    }


    private static Set<String> flussOptionKeys() {
        Set<String> keys = new HashSet<>();
        for (Field field : ConfigOptions.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == ConfigOption.class) {
                try {
                    keys.add(((ConfigOption<?>) field.get(null)).key());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return keys;
    }
}
