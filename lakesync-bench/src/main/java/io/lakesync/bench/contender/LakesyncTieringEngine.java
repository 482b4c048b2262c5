package io.lakesync.bench.contender;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.tiering.TieringService;
import io.lakesync.tiering.round.RoundHooks;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Contender B: lakesync's native engine with its default settings; only the addresses and folder are set.
 * {@code settings} adds lakesync options of a variant (B-row: the row reader only).
 */
final class LakesyncTieringEngine implements TieringEngine {

    /** Settings to try on B (comma-separated {@code key=value}); the reported results use none. */
    static final String OVERRIDES_ENV = "BENCH_B_SETTINGS";

    private final LakeSyncConfig config;
    private final RoundHooks hooks;
    private final RoundCosts costs = new RoundCosts();
    private TieringService service;

    LakesyncTieringEngine(
            String bootstrapServers,
            Map<String, String> lakeOptions,
            Path workDir,
            RoundHooks hooks,
            Map<String, String> variant) {
        this.hooks = hooks;
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(ChildArgs.BOOTSTRAP, bootstrapServers);
        lakeOptions.forEach((k, v) -> settings.put(LakeSyncOptions.LAKE_PREFIX + k, v));
        settings.put(LakeSyncOptions.DATA_DIR.key(), workDir.toString());
        settings.putAll(variant);
        settings.putAll(overrides(System.getenv(OVERRIDES_ENV)));
        this.config = LakeSyncConfig.fromMap(settings, "benchmark contender B");
    }

    static Map<String, String> overrides(String value) {
        Map<String, String> settings = new LinkedHashMap<>();
        if (value != null && !value.isBlank()) {
            for (String pair : value.split(",")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException(OVERRIDES_ENV + " must be key=value pairs separated by commas, not '" + pair + "'");
                }
                settings.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
        }
        return settings;
    }

    @Override
    public void start() throws Exception {
        service = new TieringService(config, costs, hooks, Clock.systemUTC());
        service.start();
    }

    @Override
    public Optional<String> failure() {
        // The service retries failed tables itself and has no terminal failure; a crash ends the process.
        return Optional.empty();
    }

    @Override
    public Map<String, Object> stats() {
        return costs.figures();
    }

    @Override
    public void close() throws Exception {
        if (service != null) {
            service.close();
        }
    }
}
