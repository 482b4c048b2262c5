package io.lakesync.bench.contender;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.tiering.TieringService;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Contender B: lakesync's native engine with its default settings; only the addresses and folder are set. */
final class LakesyncTieringEngine implements TieringEngine {

    private final LakeSyncConfig config;
    private TieringService service;

    LakesyncTieringEngine(String bootstrapServers, Map<String, String> lakeOptions, Path workDir) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(ChildArgs.BOOTSTRAP, bootstrapServers);
        lakeOptions.forEach((k, v) -> settings.put(LakeSyncOptions.LAKE_PREFIX + k, v));
        settings.put(LakeSyncOptions.DATA_DIR.key(), workDir.toString());
        this.config = LakeSyncConfig.fromMap(settings, "benchmark contender B");
    }

    @Override
    public void start() throws Exception {
        service = new TieringService(config);
        service.start();
    }

    @Override
    public Optional<String> failure() {
        // The service retries failed tables itself and has no terminal failure; a crash ends the process.
        return Optional.empty();
    }

    @Override
    public void close() throws Exception {
        if (service != null) {
            service.close();
        }
    }
}
