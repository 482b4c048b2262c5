package io.lakesync.tiering.maintenance;

import io.lakesync.config.LakeSyncOptions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.fluss.config.ConfigOption;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.TableInfo;

/**
 * The maintenance settings of one table: the service defaults ({@code maintenance.*} in
 * {@link LakeSyncOptions}), each overridable by the Fluss table's custom property {@value #TABLE_PREFIX}{@code
 * <key>}, for example {@code 'lakesync.maintenance.enabled' = 'false'}.
 */
public record MaintenanceOptions(
        boolean enabled,
        Duration interval,
        int compactionMinFiles,
        Duration fullCompactionInterval,
        Duration snapshotTimeRetained,
        int snapshotNumRetainedMin,
        Duration orphanOlderThan) {

    /**
     * The least orphan margin: a round's files wait for its commit for the round's remaining read time plus the
     * Paimon and coordinator commits, which a loaded machine or a slow store stretches far beyond the freshness.
     */
    public static final Duration MIN_ORPHAN_MARGIN = Duration.ofHours(1);

    /** Prefix of the per-table overrides among the Fluss table's custom properties. */
    public static final String TABLE_PREFIX = "lakesync.";

    private static final List<ConfigOption<?>> PER_TABLE = List.of(
            LakeSyncOptions.MAINTENANCE_ENABLED,
            LakeSyncOptions.MAINTENANCE_INTERVAL,
            LakeSyncOptions.MAINTENANCE_COMPACTION_MIN_FILES,
            LakeSyncOptions.MAINTENANCE_FULL_COMPACTION_INTERVAL,
            LakeSyncOptions.MAINTENANCE_SNAPSHOT_TIME_RETAINED,
            LakeSyncOptions.MAINTENANCE_SNAPSHOT_NUM_RETAINED_MIN,
            LakeSyncOptions.MAINTENANCE_ORPHAN_OLDER_THAN);

    /**
     * The settings of {@code table}: its own overrides over {@code defaults}. A malformed or out-of-range
     * value fails with an {@link IllegalArgumentException} naming the table and the property.
     */
    public static MaintenanceOptions of(Configuration defaults, TableInfo table) {
        Map<String, String> merged = new HashMap<>(defaults.toMap());
        Map<String, String> custom = table.getCustomProperties().toMap();
        for (ConfigOption<?> option : PER_TABLE) {
            String own = custom.get(TABLE_PREFIX + option.key());
            if (own != null) {
                merged.put(option.key(), own);
            }
        }
        Configuration conf = Configuration.fromMap(merged);
        MaintenanceOptions options = new MaintenanceOptions(
                read(conf, LakeSyncOptions.MAINTENANCE_ENABLED, table),
                read(conf, LakeSyncOptions.MAINTENANCE_INTERVAL, table),
                read(conf, LakeSyncOptions.MAINTENANCE_COMPACTION_MIN_FILES, table),
                read(conf, LakeSyncOptions.MAINTENANCE_FULL_COMPACTION_INTERVAL, table),
                read(conf, LakeSyncOptions.MAINTENANCE_SNAPSHOT_TIME_RETAINED, table),
                read(conf, LakeSyncOptions.MAINTENANCE_SNAPSHOT_NUM_RETAINED_MIN, table),
                read(conf, LakeSyncOptions.MAINTENANCE_ORPHAN_OLDER_THAN, table));
        options.check(table, custom);
        return options;
    }

    private void check(TableInfo table, Map<String, String> custom) {
        require(compactionMinFiles >= 2, table, custom, LakeSyncOptions.MAINTENANCE_COMPACTION_MIN_FILES,
                "must be at least 2");
        require(snapshotNumRetainedMin >= 1, table, custom, LakeSyncOptions.MAINTENANCE_SNAPSHOT_NUM_RETAINED_MIN,
                "must be at least 1");
        require(!interval.isNegative() && !interval.isZero(), table, custom, LakeSyncOptions.MAINTENANCE_INTERVAL,
                "must be positive");
        Duration twiceFreshness = table.getTableConfig().getDataLakeFreshness().multipliedBy(2);
        Duration margin = twiceFreshness.compareTo(MIN_ORPHAN_MARGIN) > 0 ? twiceFreshness : MIN_ORPHAN_MARGIN;
        require(orphanOlderThan.compareTo(margin) >= 0, table, custom,
                LakeSyncOptions.MAINTENANCE_ORPHAN_OLDER_THAN,
                "must be at least " + MIN_ORPHAN_MARGIN.toMinutes() + " min and twice the table's freshness ("
                        + twiceFreshness.toMillis() + " ms), or files a round (of any tiering service) wrote but has "
                        + "not committed yet could be deleted as orphans");
    }

    private static void require(
            boolean holds, TableInfo table, Map<String, String> custom, ConfigOption<?> option, String rule) {
        if (!holds) {
            throw new IllegalArgumentException(where(table, custom, option) + " " + rule + ".");
        }
    }

    private static <T> T read(Configuration conf, ConfigOption<T> option, TableInfo table) {
        try {
            return conf.get(option);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    where(table, table.getCustomProperties().toMap(), option) + " is malformed: " + e.getMessage(), e);
        }
    }

    /** Names the setting the way the user set it: the table's property, or the service's config key. */
    private static String where(TableInfo table, Map<String, String> custom, ConfigOption<?> option) {
        String tableKey = TABLE_PREFIX + option.key();
        return custom.containsKey(tableKey)
                ? "Lake maintenance of " + table.getTablePath() + ": table property '" + tableKey + "' = '"
                        + custom.get(tableKey) + "'"
                : "Lake maintenance of " + table.getTablePath() + ": config key '" + option.key() + "'";
    }
}
