package io.lakesync.cli;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Where a command's configuration comes from: the YAML file, overridden by {@code --set} pairs, overridden by
 * the named flags. The result is validated at once, so a bad key fails before anything starts. In the file and in
 * {@code --set}, a value {@code @FILE} is read from that file, which is how secrets are given.
 */
final class ConfigSource {

    @Option(names = "--config", paramLabel = "FILE", description = "YAML config file (nested or dotted keys).")
    private Path file;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            description = "Sets any config key, over the file; repeatable. KEY=@FILE reads the value from FILE: "
                    + "give secrets so, never on the command line.")
    private Map<String, String> set = new LinkedHashMap<>();

    @Option(names = "--data-dir", paramLabel = "DIR", description = "Sets data.dir, the data folder.")
    private String dataDir;

    @Option(names = "--port", paramLabel = "N", description = "Sets service.port, the HTTP port (0: any free).")
    private Integer port;

    /** The validated configuration, with {@code commandFlags} (a subcommand's own flags) applied last. */
    LakeSyncConfig load(Map<String, String> commandFlags) {
        Map<String, String> overrides = new LinkedHashMap<>(set);
        if (dataDir != null) {
            overrides.put(LakeSyncOptions.DATA_DIR.key(), dataDir);
        }
        if (port != null) {
            overrides.put(LakeSyncOptions.SERVICE_PORT.key(), String.valueOf(port));
        }
        overrides.putAll(commandFlags);
        return LakeSyncConfig.load(file, overrides);
    }
}
