package io.lakesync.state;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.fluss.config.Password;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's durable state (alert rules, notification channels, alert history, the service switch and the
 * audit log) in a relational database reached through JDBC: by default an SQLite file
 * {@code <data.dir>/lakesync.db}, or a PostgreSQL server that several lakesync instances share.
 *
 * <p>Opening a store migrates its schema with Flyway to the newest version under {@code db/migration}, so a
 * new lakesync version upgrades an old state in place. Connections come from a small pool. Work runs through
 * {@link #read} (auto-commit) or {@link #write} (one transaction, rolled back on any failure); every change
 * should write its audit record with {@link Sql#audit} in that same transaction, so no change goes unaudited.
 */
public final class StateStore implements AutoCloseable {

    /** File name of the default SQLite state under {@code data.dir}. */
    public static final String SQLITE_FILE_NAME = "lakesync.db";

    private static final Logger LOG = LoggerFactory.getLogger(StateStore.class);

    private final HikariDataSource dataSource;
    private final DatabaseKind kind;
    private final String jdbcUrl;
    private final Clock clock;
    private final ServiceSwitchRepository serviceSwitch;
    private final AuditLog auditLog;

    private StateStore(HikariDataSource dataSource, DatabaseKind kind, String jdbcUrl, Clock clock) {
        this.dataSource = dataSource;
        this.kind = kind;
        this.jdbcUrl = jdbcUrl;
        this.clock = clock;
        this.serviceSwitch = new JdbcServiceSwitchRepository(this);
        this.auditLog = new JdbcAuditLog(this);
    }

    /** Opens the state that {@code state.jdbc-url} names, or the SQLite file under {@code data.dir}. */
    public static StateStore open(LakeSyncConfig config, Clock clock) {
        String url = config.get(LakeSyncOptions.STATE_JDBC_URL).trim();
        if (url.isEmpty()) {
            Path dataDir = Path.of(config.get(LakeSyncOptions.DATA_DIR)).toAbsolutePath().normalize();
            try {
                Files.createDirectories(dataDir);
            } catch (IOException e) {
                throw new ConfigException(
                        "Cannot create the folder '" + dataDir + "' of config key '" + LakeSyncOptions.DATA_DIR.key()
                                + "' for the state database: " + e.getMessage());
            }
            url = "jdbc:sqlite:" + dataDir.resolve(SQLITE_FILE_NAME);
        }
        Password password = config.get(LakeSyncOptions.STATE_JDBC_PASSWORD);
        return open(url, config.get(LakeSyncOptions.STATE_JDBC_USER), password == null ? "" : password.value(),
                new Timeouts(config.get(LakeSyncOptions.STATE_CONNECT_TIMEOUT),
                        config.get(LakeSyncOptions.STATE_QUERY_TIMEOUT)),
                clock);
    }

    /**
     * How long a PostgreSQL call may wait: to open a connection or be handed one from the pool ({@code connect}),
     * and for the server to answer on an open one ({@code query}: a stopped server or a partition mid-query would
     * otherwise hold the caller for ever, as the driver waits on its socket without end by default). SQLite is a
     * local file and keeps its own lock timeout.
     */
    public record Timeouts(Duration connect, Duration query) {

        /** The defaults of {@code state.connect-timeout} and {@code state.query-timeout}. */
        public static final Timeouts DEFAULT = new Timeouts(
                LakeSyncOptions.STATE_CONNECT_TIMEOUT.defaultValue(), LakeSyncOptions.STATE_QUERY_TIMEOUT.defaultValue());
    }

    /** Opens and migrates the state at {@code jdbcUrl} with the default {@link Timeouts}. */
    public static StateStore open(String jdbcUrl, String user, String password, Clock clock) {
        return open(jdbcUrl, user, password, Timeouts.DEFAULT, clock);
    }

    /**
     * Opens and migrates the state at {@code jdbcUrl}; {@code user} and {@code password} may be empty.
     *
     * @throws ConfigException if the URL is not an SQLite or PostgreSQL one
     * @throws StateStoreException if the database cannot be reached or migrated
     */
    public static StateStore open(String jdbcUrl, String user, String password, Timeouts timeouts, Clock clock) {
        DatabaseKind kind = DatabaseKind.ofUrl(jdbcUrl);
        HikariDataSource dataSource = connect(kind, jdbcUrl, user, password, timeouts);
        try {
            MigrateResult result =
                    Flyway.configure()
                            .dataSource(dataSource)
                            .locations("classpath:db/migration")
                            .placeholders(Map.of("autoIncrementKey", kind.autoIncrementKey()))
                            .load()
                            .migrate();
            LOG.info("State database {} at schema version {} ({} migration(s) applied now)", jdbcUrl,
                    result.targetSchemaVersion != null ? result.targetSchemaVersion : result.initialSchemaVersion,
                    result.migrationsExecuted);
        } catch (FlywayException e) {
            dataSource.close();
            throw new StateStoreException(
                    "Cannot migrate the state database " + jdbcUrl + " (config key '"
                            + LakeSyncOptions.STATE_JDBC_URL.key() + "') to the current schema: " + e.getMessage(), e);
        }
        return new StateStore(dataSource, kind, jdbcUrl, clock);
    }

    private static HikariDataSource connect(
            DatabaseKind kind, String jdbcUrl, String user, String password, Timeouts timeouts) {
        HikariConfig pool = new HikariConfig();
        pool.setPoolName("lakesync-state");
        pool.setJdbcUrl(jdbcUrl);
        if (!user.isEmpty()) {
            pool.setUsername(user);
        }
        if (!password.isEmpty()) {
            pool.setPassword(password);
        }
        if (kind == DatabaseKind.SQLITE) {
            pool.setConnectionTimeout(10_000);
            // One writer at a time: transactions take the write lock when they begin, and a writer waits for
            // another instead of failing at once. WAL lets readers go on meanwhile.
            pool.setMaximumPoolSize(4);
            pool.addDataSourceProperty("journal_mode", "WAL");
            pool.addDataSourceProperty("busy_timeout", "10000");
            pool.addDataSourceProperty("transaction_mode", "IMMEDIATE");
            pool.addDataSourceProperty("foreign_keys", "true");
        } else {
            pool.setMaximumPoolSize(8);
            pool.setConnectionTimeout(timeouts.connect().toMillis());
            pool.setValidationTimeout(timeouts.connect().toMillis());
            pool.addDataSourceProperty("connectTimeout", timeouts.connect().toSeconds());
            pool.addDataSourceProperty("loginTimeout", timeouts.connect().toSeconds());
            pool.addDataSourceProperty("socketTimeout", timeouts.query().toSeconds());
        }
        try {
            return new HikariDataSource(pool);
        } catch (RuntimeException e) {
            throw new StateStoreException(
                    "Cannot connect to the state database " + jdbcUrl + " (config keys '"
                            + LakeSyncOptions.STATE_JDBC_URL.key() + "', '" + LakeSyncOptions.STATE_JDBC_USER.key()
                            + "', '" + LakeSyncOptions.STATE_JDBC_PASSWORD.key() + "'): " + rootMessage(e), e);
        }
    }

    /** A unit of work on one connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Sql sql) throws SQLException;
    }

    /** Runs read-only {@code work} on a pooled connection in auto-commit mode. */
    public <T> T read(Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.run(new Sql(connection, clock));
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    /** Runs {@code work} in one transaction: committed if it returns, rolled back if it throws. */
    public <T> T write(Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(new Sql(connection, clock));
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    public ServiceSwitchRepository serviceSwitch() {
        return serviceSwitch;
    }

    public AuditLog auditLog() {
        return auditLog;
    }

    public DatabaseKind kind() {
        return kind;
    }

    public String jdbcUrl() {
        return jdbcUrl;
    }

    @Override
    public void close() {
        dataSource.close();
    }

    private StateStoreException failure(SQLException e) {
        return new StateStoreException("State database " + jdbcUrl + " failed: " + e.getMessage(), e);
    }

    private static String rootMessage(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? cause.toString() : cause.getMessage();
    }
}
