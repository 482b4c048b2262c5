package io.lakesync.state;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncOptions;

/** The databases the state can live in, told apart by their JDBC URL. */
public enum DatabaseKind {
    /** One file, for a single lakesync instance; the default. */
    SQLITE("jdbc:sqlite:", "INTEGER PRIMARY KEY AUTOINCREMENT",
            "CAST(ROUND(unixepoch('subsec') * 1000) AS INTEGER)", ""),
    /** A server, shared by several lakesync instances. */
    POSTGRESQL("jdbc:postgresql:", "BIGSERIAL PRIMARY KEY",
            "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT)", " FOR UPDATE");

    private final String urlPrefix;
    private final String autoIncrementKey;
    private final String currentMillis;
    private final String lockRows;

    DatabaseKind(String urlPrefix, String autoIncrementKey, String currentMillis, String lockRows) {
        this.urlPrefix = urlPrefix;
        this.autoIncrementKey = autoIncrementKey;
        this.currentMillis = currentMillis;
        this.lockRows = lockRows;
    }

    /**
     * An SQL expression for the database server's time in epoch milliseconds (PostgreSQL: the transaction's
     * start). Times that instances compare with one another (heartbeats, leases) take it, so one clock decides
     * and a skew between the instances' machines does not matter.
     */
    public String currentMillis() {
        return currentMillis;
    }

    /**
     * What to append to a SELECT inside {@link StateStore#write} so that the rows it reads stay locked until the
     * transaction ends. Empty on SQLite, where a write transaction holds the whole database from its start.
     */
    public String lockRows() {
        return lockRows;
    }

    /** Column definition of a generated 64-bit primary key, for the migration placeholder. */
    String autoIncrementKey() {
        return autoIncrementKey;
    }

    /** The kind a JDBC URL points at, or a {@link ConfigException} naming {@code state.jdbc-url}. */
    public static DatabaseKind ofUrl(String jdbcUrl) {
        for (DatabaseKind kind : values()) {
            if (jdbcUrl.startsWith(kind.urlPrefix)) {
                return kind;
            }
        }
        throw new ConfigException(
                "Unsupported state database URL '" + jdbcUrl + "' in config key '"
                        + LakeSyncOptions.STATE_JDBC_URL.key() + "': use jdbc:postgresql://host:port/database, "
                        + "or leave it empty for an SQLite file under '" + LakeSyncOptions.DATA_DIR.key() + "'.");
    }
}
