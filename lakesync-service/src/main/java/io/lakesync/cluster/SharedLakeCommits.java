package io.lakesync.cluster;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.state.DatabaseKind;
import io.lakesync.tiering.lake.CommitSafety;
import java.util.Map;

/**
 * Refuses a layout where several instances would commit to an object-store lake that nothing locks. A shared
 * (PostgreSQL) state is how instances form one service, so each of them may take any table; on an object store,
 * only a catalog lock keeps two of them from both writing the same Paimon snapshot, and lakesync's own lock reaches
 * no further than its process.
 */
public final class SharedLakeCommits {

    private static final String PREFIX = LakeSyncOptions.LAKE_PREFIX;

    private SharedLakeCommits() {}

    /** Throws a {@link ConfigException} naming the keys and the fix when the layout could lose or double rows. */
    public static void check(DatabaseKind state, CommitSafety lake, Map<String, String> lakeOptions) {
        if (state != DatabaseKind.POSTGRESQL || lake != CommitSafety.IN_PROCESS_LOCK_ONLY) {
            return;
        }
        throw new ConfigException("Config keys '" + LakeSyncOptions.STATE_JDBC_URL.key() + "' and '" + PREFIX
                + "metastore' do not go together: a PostgreSQL state is shared by several lakesync instances, and "
                + "they would commit to the lake at '" + lakeOptions.get("warehouse") + "' (" + PREFIX + "warehouse), "
                + "an object store where Paimon cannot create a snapshot atomically, through a catalog that holds no "
                + "lock (" + PREFIX + "metastore = '" + lakeOptions.getOrDefault("metastore", "filesystem")
                + "'), so two instances could write the same snapshot. Use a catalog that locks across instances: "
                + PREFIX + "metastore = jdbc with " + PREFIX + "uri (the state's PostgreSQL will do) and " + PREFIX
                + "lock.enabled = true, as deploy/kubernetes/configmap.yaml does; or run one instance on the default "
                + "SQLite state (no " + LakeSyncOptions.STATE_JDBC_URL.key() + ").");
    }
}
