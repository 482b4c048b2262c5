package io.lakesync.tiering.lake;

import io.lakesync.errors.ErrorMessages;
import io.lakesync.retry.RetryBackoff;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.paimon.catalog.CatalogLock;
import org.apache.paimon.catalog.CatalogLockContext;
import org.apache.paimon.catalog.CatalogLockFactory;
import org.apache.paimon.jdbc.JdbcCatalog;
import org.apache.paimon.jdbc.JdbcCatalogLock;
import org.apache.paimon.jdbc.JdbcCatalogLockContext;
import org.apache.paimon.jdbc.JdbcUtils;
import org.apache.paimon.options.CatalogOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit lock of a Paimon JDBC catalog on PostgreSQL ({@code lock.type = lakesync-jdbc}): the rows of Paimon's
 * own {@code paimon_distributed_locks} table, so it excludes Paimon's JDBC lock in other processes (a Flink job, a
 * user's compaction) and they exclude it, but held as a lease that its holder renews.
 *
 * <p>Why not Paimon's lock: its row expires only after {@code lock-acquire-timeout} (8 minutes by default), and a
 * holder that dies, or whose release fails because the database restarted, leaves the row behind; every commit to
 * the table then waits for those minutes. Here the row lives {@link #LEASE} past its last renewal, renewed every
 * {@link #RENEW_EVERY} while the commit runs, so a dead holder's lock is free within the lease.
 *
 * <pre>
 *   acquire: delete the row if its lease ran out ─► insert it (it was absent) ─► ours, stamped acquired_at = T
 *               ▲                                        │ present
 *               └──────── wait (backoff, until lock-acquire-timeout) ◄┘
 *   held:    every RENEW_EVERY: acquired_at = now where it is still T (else: the lease was lost, logged)
 *   release: delete the row where acquired_at is still ours; when the database does not answer, again every
 *            second in the background until the lease runs out (a restarted database frees it in seconds)
 * </pre>
 *
 * <p>Every lock call has its own short-lived connection with connect and socket timeouts, so a database restart
 * costs at most the commit that was running. The expiry is computed by the database's clock alone, in UTC.
 */
public final class LeasedJdbcCommitLock implements CatalogLockFactory {

    private static final long serialVersionUID = 1L;

    public static final String IDENTIFIER = "lakesync-jdbc";

    private static final Logger LOG = LoggerFactory.getLogger(LeasedJdbcCommitLock.class);

    /** How long a lock lives after its last renewal: how long a dead holder can keep others waiting. */
    static final Duration LEASE = Duration.ofSeconds(20);
    /** How often a holder renews: a few tries fit in a lease. */
    static final Duration RENEW_EVERY = Duration.ofSeconds(5);
    /** The connect and socket timeouts of the lock's connections, unless the catalog's {@code jdbc.*} options set them. */
    private static final String CONNECT_TIMEOUT_SECONDS = "10";
    private static final String SOCKET_TIMEOUT_SECONDS = "30";
    /** How often a release that failed is tried again, within the lease. */
    private static final Duration RELEASE_RETRY = Duration.ofSeconds(1);
    private static final RetryBackoff WAIT = RetryBackoff.jittered(Duration.ofMillis(50), Duration.ofSeconds(1));

    private static final String TABLE = "paimon_distributed_locks";
    private static final String CLEAR_EXPIRED = "DELETE FROM " + TABLE + " WHERE lock_id = ? AND "
            + "EXTRACT(EPOCH FROM (LOCALTIMESTAMP - acquired_at)) > expire_time_seconds";
    private static final String TAKE = "INSERT INTO " + TABLE + " (lock_id, acquired_at, expire_time_seconds) "
            + "VALUES (?, LOCALTIMESTAMP, ?) ON CONFLICT (lock_id) DO NOTHING RETURNING acquired_at";
    private static final String RENEW = "UPDATE " + TABLE + " SET acquired_at = LOCALTIMESTAMP "
            + "WHERE lock_id = ? AND acquired_at = CAST(? AS TIMESTAMP) RETURNING acquired_at";
    private static final String RELEASE = "DELETE FROM " + TABLE + " WHERE lock_id = ? AND acquired_at = CAST(? AS TIMESTAMP)";

    /** Renews the leases of every lock held in this process. */
    private static final ScheduledExecutorService RENEWALS = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "lakesync-commit-lock-renewal");
        thread.setDaemon(true);
        return thread;
    });

    /** Whether this lock serves a catalog with these options: Paimon's JDBC catalog on PostgreSQL, locking. */
    static boolean serves(Map<String, String> catalogOptions) {
        return "jdbc".equalsIgnoreCase(catalogOptions.get(CatalogOptions.METASTORE.key()))
                && String.valueOf(catalogOptions.get(CatalogOptions.URI.key())).startsWith("jdbc:postgresql:");
    }

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public CatalogLock createLock(CatalogLockContext context) {
        if (!(context instanceof JdbcCatalogLockContext jdbc)) {
            throw new IllegalArgumentException("lock.type '" + IDENTIFIER + "' needs Paimon's JDBC catalog "
                    + "(metastore: jdbc); this catalog's lock context is a " + context.getClass().getSimpleName() + ".");
        }
        Map<String, String> options = jdbc.options().toMap();
        Properties properties = JdbcUtils.extractJdbcConfiguration(options, JdbcCatalog.PROPERTY_PREFIX);
        properties.putIfAbsent("connectTimeout", CONNECT_TIMEOUT_SECONDS);
        properties.putIfAbsent("socketTimeout", SOCKET_TIMEOUT_SECONDS);
        return new Lease(options.get(CatalogOptions.URI.key()), properties, jdbc.catalogKey(),
                Duration.ofMillis(JdbcCatalogLock.acquireTimeout(options)), LEASE, RENEW_EVERY);
    }

    /** One catalog's lock; each {@link #runWithLock} holds one row for as long as its call runs. */
    static final class Lease implements CatalogLock {

        private final String url;
        private final Properties properties;
        private final String catalogKey;
        private final Duration acquireTimeout;
        private final Duration lease;
        private final Duration renewEvery;

        Lease(String url, Properties properties, String catalogKey, Duration acquireTimeout, Duration lease,
                Duration renewEvery) {
            this.url = url;
            this.properties = properties;
            this.catalogKey = catalogKey;
            this.acquireTimeout = acquireTimeout;
            this.lease = lease;
            this.renewEvery = renewEvery;
        }

        @Override
        public <T> T runWithLock(String database, String table, Callable<T> callable) throws Exception {
            // The lock name of Paimon's JDBC lock, so that both exclude each other.
            String lockId = catalogKey + "." + database + "." + table;
            Held held = acquire(lockId);
            ScheduledFuture<?> renewal = RENEWALS.scheduleWithFixedDelay(
                    held::renew, renewEvery.toMillis(), renewEvery.toMillis(), TimeUnit.MILLISECONDS);
            try {
                return callable.call();
            } finally {
                renewal.cancel(false);
                held.release();
            }
        }

        private Held acquire(String lockId) throws SQLException, InterruptedException {
            long deadline = System.nanoTime() + acquireTimeout.toNanos();
            for (int attempt = 1; ; attempt++) {
                Connection connection = connect();
                try {
                    try (PreparedStatement clear = connection.prepareStatement(CLEAR_EXPIRED)) {
                        clear.setString(1, lockId);
                        if (clear.executeUpdate() > 0) {
                            LOG.warn("Took over the commit lock {}: its holder did not renew it for {} s", lockId,
                                    lease.toSeconds());
                        }
                    }
                    try (PreparedStatement take = connection.prepareStatement(TAKE)) {
                        take.setString(1, lockId);
                        take.setLong(2, lease.toSeconds());
                        try (ResultSet taken = take.executeQuery()) {
                            if (taken.next()) {
                                return new Held(lockId, connection, taken.getString(1));
                            }
                        }
                    }
                } catch (SQLException | RuntimeException e) {
                    closeQuietly(connection);
                    throw e;
                }
                closeQuietly(connection);
                Duration wait = WAIT.delay(attempt);
                if (System.nanoTime() + wait.toNanos() - deadline > 0) {
                    throw new SQLException("The commit lock " + lockId + " is still held by another committer after "
                            + acquireTimeout.toSeconds() + " s (lock-acquire-timeout); a holder that stopped "
                            + "without releasing it frees it within " + lease.toSeconds() + " s");
                }
                Thread.sleep(wait.toMillis());
            }
        }

        private Connection connect() throws SQLException {
            Connection connection = DriverManager.getConnection(url, properties);
            try (Statement utc = connection.createStatement()) {
                // Paimon's table stores local timestamps: every session of this lock reads them in one zone.
                utc.execute("SET TIME ZONE 'UTC'");
            } catch (SQLException e) {
                closeQuietly(connection);
                throw e;
            }
            return connection;
        }

        @Override
        public void close() {}

        /** A lock row this process holds, stamped with the time of its last renewal. */
        private final class Held {
            private final String lockId;
            private Connection connection;
            /** As the database prints it: no time zone conversion on the way back. */
            private String stamp;
            /** When {@link #stamp} was written, by this JVM's monotonic clock. */
            private long stampedAtNanos = System.nanoTime();
            private boolean lost;

            Held(String lockId, Connection connection, String stamp) {
                this.lockId = lockId;
                this.connection = connection;
                this.stamp = stamp;
            }

            synchronized void renew() {
                if (lost) {
                    return;
                }
                try {
                    if (connection == null) {
                        connection = connect();
                    }
                    try (PreparedStatement renew = connection.prepareStatement(RENEW)) {
                        renew.setString(1, lockId);
                        renew.setString(2, stamp);
                        try (ResultSet renewed = renew.executeQuery()) {
                            if (renewed.next()) {
                                stamp = renewed.getString(1);
                                stampedAtNanos = System.nanoTime();
                                return;
                            }
                        }
                    }
                    lost = true;
                    LOG.warn("The commit lock {} expired while its commit still ran (the database did not answer "
                            + "the renewals for {} s); Paimon's commit check and lakesync's fence still keep "
                            + "snapshots apart", lockId, lease.toSeconds());
                } catch (SQLException e) {
                    LOG.info("Could not renew the commit lock {} ({}); trying again in {} s", lockId,
                            ErrorMessages.rootMessage(e), renewEvery.toSeconds());
                    closeQuietly(connection);
                    connection = null;
                }
            }

            /**
             * Deletes the row; if the database does not answer, tries again every {@link #RELEASE_RETRY} in the
             * background until the lease would have run out anyway (a restarted database is back in seconds).
             */
            synchronized void release() {
                if (lost || tryDelete() || tryDelete()) { // the second on a new connection
                    return;
                }
                LOG.warn("Could not release the commit lock {}; trying again in the background (it expires within "
                        + "{} s at the latest)", lockId, lease.toSeconds());
                RENEWALS.schedule(this::releaseLater, RELEASE_RETRY.toMillis(), TimeUnit.MILLISECONDS);
            }

            private synchronized void releaseLater() {
                if (tryDelete()) {
                    LOG.info("Released the commit lock {}", lockId);
                } else if (System.nanoTime() - stampedAtNanos < lease.toNanos()) {
                    RENEWALS.schedule(this::releaseLater, RELEASE_RETRY.toMillis(), TimeUnit.MILLISECONDS);
                } else {
                    LOG.warn("Gave up releasing the commit lock {}: its lease has run out", lockId);
                }
            }

            /** Whether the row is deleted (or was no longer ours); the connection is closed either way. */
            private boolean tryDelete() {
                try {
                    delete();
                    return true;
                } catch (SQLException e) {
                    LOG.debug("Releasing the commit lock {} failed", lockId, e);
                    return false;
                } finally {
                    closeQuietly(connection);
                    connection = null;
                }
            }

            private void delete() throws SQLException {
                if (connection == null) {
                    connection = connect();
                }
                try (PreparedStatement release = connection.prepareStatement(RELEASE)) {
                    release.setString(1, lockId);
                    release.setString(2, stamp);
                    release.executeUpdate();
                }
            }
        }

        private static void closeQuietly(Connection connection) {
            if (connection == null) {
                return;
            }
            try {
                connection.close();
            } catch (SQLException ignored) {
                // Gone with the database; the server drops the session.
            }
        }
    }
}
