package io.lakesync.catalog;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.local.ClusterTest;
import io.lakesync.state.PostgresServer;
import io.lakesync.tiering.lake.LakeTables;
import io.lakesync.tiering.lake.LeasedJdbcCommitLock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.catalog.CatalogLock;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.jdbc.JdbcCatalogLock;
import org.apache.paimon.jdbc.JdbcCatalogLockContext;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.CatalogEnvironment;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit lock of a Paimon JDBC catalog on a real PostgreSQL, as lakesync holds it: what a dead holder or a
 * restarted database leaves behind is free within the lease, not after Paimon's eight minutes, while a live holder,
 * Paimon's own lock among them, still keeps every other committer out.
 */
@ClusterTest
class CommitLockLeaseTest {

    private static final TablePath ORDERS = TablePath.of("shop", "orders");
    private static final String LOCK_ID = "jdbc.shop.orders";
    /** Long enough for a free lock on a loaded machine, far shorter than Paimon's eight minutes. */
    private static final String ACQUIRE_TIMEOUT = "5 s";

    @RegisterExtension static PostgresServer postgres = PostgresServer.ownServer();

    @TempDir Path warehouse;

    private String jdbcUrl;
    private LakeTables lake;

    @BeforeEach
    void createTable() throws Exception {
        jdbcUrl = postgres.newDatabase();
        lake = new LakeTables(Map.of(
                "metastore", "jdbc",
                "uri", jdbcUrl,
                "jdbc.user", PostgresServer.SUPERUSER,
                "jdbc.password", PostgresServer.PASSWORD,
                "warehouse", warehouse.toString(),
                "lock.enabled", "true",
                "lock-acquire-timeout", ACQUIRE_TIMEOUT));
        lake.catalog().createDatabase("shop", false);
        lake.catalog().createTable(Identifier.create("shop", "orders"),
                Schema.newBuilder().column("id", DataTypes.BIGINT()).build(), false);
    }

    @AfterEach
    void closeCatalog() throws Exception {
        lake.close();
    }

    @Test
    void commitsOfAJdbcCatalogOnPostgresTakeTheLeasedLock() throws Exception {
        assertThat(environment().lockFactory()).isInstanceOf(LeasedJdbcCommitLock.class);
        assertThat(lock().runWithLock("shop", "orders", () -> heldRows())).isEqualTo(1);
        assertThat(heldRows()).as("released").isZero();
    }

    @Test
    void aLockWhoseHolderStoppedRenewingItIsTakenOverAtOnce() throws Exception {
        // What a killed holder leaves: its row, last renewed longer ago than its lease.
        sql("INSERT INTO paimon_distributed_locks (lock_id, acquired_at, expire_time_seconds) "
                + "VALUES (?, LOCALTIMESTAMP - INTERVAL '21 seconds', 20)", LOCK_ID);
        long start = System.nanoTime();
        assertThat(lock().runWithLock("shop", "orders", () -> "committed")).isEqualTo("committed");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aLiveHoldersLeaseIsRenewedSoNobodyTakesItOver() throws Exception {
        CountDownLatch renewed = new CountDownLatch(1);
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> {
            try {
                lock().runWithLock("shop", "orders", () -> {
                    String first = acquiredAt();
                    eventually(Duration.ofSeconds(30), () -> assertThat(acquiredAt()).isNotEqualTo(first));
                    renewed.countDown();
                    return null;
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(renewed.await(60, TimeUnit.SECONDS)).as("the holder renewed its lease").isTrue();
        holder.get(30, TimeUnit.SECONDS);
        assertThat(heldRows()).isZero();
    }

    @Test
    void paimonsOwnLockHeldElsewhereKeepsTheCommitWaitingAndItsErrorNamesTheTimeout() throws Exception {
        JdbcCatalogLockContext context = (JdbcCatalogLockContext) environment().lockContext();
        try (JdbcCatalogLock paimons = new JdbcCatalogLock(context.connections(), context.catalogKey(), 100, 60_000)) {
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            CompletableFuture<Void> flinkJob = CompletableFuture.runAsync(() -> {
                try {
                    paimons.runWithLock("shop", "orders", () -> {
                        held.countDown();
                        return done.await(60, TimeUnit.SECONDS);
                    });
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(held.await(30, TimeUnit.SECONDS)).isTrue();
            try {
                assertThatThrownBy(() -> lock().runWithLock("shop", "orders", () -> "committed"))
                        .isInstanceOf(SQLException.class)
                        .hasMessageContaining(LOCK_ID)
                        .hasMessageContaining("lock-acquire-timeout");
            } finally {
                done.countDown();
            }
            flinkJob.get(30, TimeUnit.SECONDS);
            assertThat(lock().runWithLock("shop", "orders", () -> "committed")).isEqualTo("committed");
        } finally {
            context.connections().close();
        }
    }

    @Test
    void aLockHeldWhileTheDatabaseRestartedDoesNotStopTheNextCommit() throws Exception {
        // The catalog's own first call after the restart fails (and opens it again): the lock is taken before.
        CatalogLock lock = lock();
        holdWhile(lock, postgres::restart);
        long start = System.nanoTime();
        assertThat(lock.runWithLock("shop", "orders", () -> "committed")).isEqualTo("committed");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(heldRows()).isZero();
    }

    @Test
    void aLockWhoseReleaseFoundTheDatabaseDownIsReleasedAsSoonAsItIsBack() throws Exception {
        CatalogLock lock = lock();
        holdWhile(lock, postgres::stop);
        postgres.start();
        // Released in the background within seconds, well before its 20 s lease runs out.
        eventually(Duration.ofSeconds(10), () -> assertThat(heldRows()).isZero());
        assertThat(lock.runWithLock("shop", "orders", () -> "committed")).isEqualTo("committed");
    }

    /** Holds the lock, its row on disk so that it outlives the server, while {@code fault} strikes the database. */
    private void holdWhile(CatalogLock lock, DatabaseFault fault) throws Exception {
        lock.runWithLock("shop", "orders", () -> {
            sql("CHECKPOINT");
            fault.strike();
            return null;
        });
    }

    @FunctionalInterface
    private interface DatabaseFault {
        void strike() throws Exception;
    }

    private CatalogEnvironment environment() throws Exception {
        return lake.load(ORDERS).catalogEnvironment();
    }

    private CatalogLock lock() throws Exception {
        CatalogEnvironment environment = environment();
        return environment.lockFactory().createLock(environment.lockContext());
    }

    private long heldRows() throws SQLException {
        return Long.parseLong(query("SELECT COUNT(*) FROM paimon_distributed_locks WHERE lock_id = ?"));
    }

    private String acquiredAt() throws SQLException {
        return query("SELECT CAST(acquired_at AS TEXT) FROM paimon_distributed_locks WHERE lock_id = ?");
    }

    private String query(String query) throws SQLException {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(query)) {
            statement.setString(1, LOCK_ID);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    private void sql(String sql, String... params) throws SQLException {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setString(i + 1, params[i]);
            }
            statement.execute();
        }
    }

    private Connection connect() throws SQLException {
        Connection connection = DriverManager.getConnection(jdbcUrl, PostgresServer.SUPERUSER, PostgresServer.PASSWORD);
        try (var utc = connection.createStatement()) {
            utc.execute("SET TIME ZONE 'UTC'");
        }
        return connection;
    }
}
