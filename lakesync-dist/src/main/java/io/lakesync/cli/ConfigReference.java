package io.lakesync.cli;

import io.lakesync.config.LakeSyncOptions;
import java.time.Duration;
import org.apache.fluss.config.ConfigOption;
import org.apache.fluss.utils.TimeUtils;

/** Renders {@link LakeSyncOptions} as the Markdown table that README.md's configuration reference holds. */
final class ConfigReference {

    private ConfigReference() {}

    static String markdown() {
        StringBuilder table = new StringBuilder();
        table.append("| Key | Type | Default | Description |\n");
        table.append("|---|---|---|---|\n");
        for (ConfigOption<?> option : LakeSyncOptions.all()) {
            row(table, option.key(), option.getClazz().getSimpleName(), defaultOf(option), option.description());
        }
        row(table, LakeSyncOptions.FLUSS_PREFIX + "<option>", "", "",
                "Any Fluss client option, passed to the Fluss client without the prefix: "
                        + "`fluss.bootstrap.servers` (required by `serve`), `fluss.client.security.protocol`, ...");
        row(table, LakeSyncOptions.LAKE_PREFIX + "<option>", "", "",
                "Any Paimon catalog option, passed to Paimon without the prefix, as Fluss servers take them: "
                        + "`datalake.paimon.metastore`, `datalake.paimon.warehouse`, ...");
        return table.toString();
    }

    private static void row(StringBuilder table, String key, String type, String defaultValue, String description) {
        table.append("| `").append(key).append("` | ").append(type).append(" | ")
                .append(defaultValue.isEmpty() ? "" : "`" + defaultValue + "`").append(" | ")
                .append(description.replace("|", "\\|")).append(" |\n");
    }

    private static String defaultOf(ConfigOption<?> option) {
        Object value = option.defaultValue();
        if (value == null) {
            return "";
        }
        return value instanceof Duration ? TimeUtils.formatWithHighestUnit((Duration) value) : value.toString();
    }
}
