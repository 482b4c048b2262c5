package io.lakesync.state;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncOptions;

/** The databases the state can live in, told apart by their JDBC URL. */
public enum DatabaseKind {
    /** One file, for a single lakesync instance; the default. */
    SQLITE("jdbc:sqlite:", "INTEGER PRIMARY KEY AUTOINCREMENT"),
    /** A server, shared by several lakesync instances. */
    POSTGRESQL("jdbc:postgresql:", "BIGSERIAL PRIMARY KEY");

    private final String urlPrefix;
    private final String autoIncrementKey;

    DatabaseKind(String urlPrefix, String autoIncrementKey) {
        this.urlPrefix = urlPrefix;
        this.autoIncrementKey = autoIncrementKey;
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
