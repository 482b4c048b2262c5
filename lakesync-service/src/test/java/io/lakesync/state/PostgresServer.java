package io.lakesync.state;

import io.lakesync.local.LocalPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real, throwaway PostgreSQL server for tests ({@link LocalPostgres}: the Debian binaries that
 * {@code build-support/test-deps/postgresql.sh} installs).
 *
 * <p>Register it with {@code @RegisterExtension static PostgresServer postgres = new PostgresServer();} and call
 * {@link #newDatabase()} for an empty database. One server serves the whole test run (starting one costs a few
 * seconds); it listens on 127.0.0.1 and a free port, keeps its data in a temporary folder with fsync off, takes
 * password logins only, and is stopped and deleted when the run ends. PostgreSQL refuses to run as root, so as
 * root it runs as the {@code postgres} OS user the Debian package creates.
 *
 * <p>A test class that stops the server ({@link #stop()}) registers {@link #ownServer()} instead: a server of its
 * own for the class, so that the classes running beside it in the same JVM keep theirs.
 */
public final class PostgresServer implements BeforeAllCallback {

    public static final String SUPERUSER = LocalPostgres.SUPERUSER;
    public static final String PASSWORD = "lakesync-test-password";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(PostgresServer.class);
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private final boolean shared;
    private Running server;

    public PostgresServer() {
        this(true);
    }

    private PostgresServer(boolean shared) {
        this.shared = shared;
    }

    /** A server for the registering test class alone, started before it and removed after it; it may be stopped. */
    public static PostgresServer ownServer() {
        return new PostgresServer(false);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        // Another key for a class's own: a class's store also answers with what its parents (the root) hold.
        ExtensionContext owner = shared ? context.getRoot() : context;
        server = owner.getStore(NAMESPACE)
                .getOrComputeIfAbsent(shared ? "server" : "own-server", key -> Running.start(), Running.class);
    }

    /** A new, empty database owned by {@link #SUPERUSER}, returned as its JDBC URL. */
    public String newDatabase() throws SQLException {
        String name = "lakesync_test_" + DATABASES.incrementAndGet();
        try (Connection connection = DriverManager.getConnection(jdbcUrl("postgres"), SUPERUSER, PASSWORD);
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        }
        return jdbcUrl(name);
    }

    /** Opens a state store on {@code jdbcUrl} of this server as {@link #SUPERUSER}. */
    public StateStore open(String jdbcUrl, Clock clock) {
        return StateStore.open(jdbcUrl, SUPERUSER, PASSWORD, clock);
    }

    /**
     * Stops the server, to see what lakesync does when its state database goes away ({@link #start()} brings it
     * back). Only a class's own
     * server ({@link #ownServer()}) may be stopped: the shared one serves the other classes of the run's JVM.
     */
    public void stop() throws IOException {
        ownedRunning().stop();
    }

    /** Starts a {@link #stop() stopped} server again on the same port. */
    public void start() throws IOException {
        ownedRunning().server.restart();
    }

    /** Stops the server and starts it again on the same port: every connection open to it is gone. */
    public void restart() throws IOException {
        Running running = ownedRunning();
        running.server.stop();
        running.server.restart();
    }

    /**
     * Freezes the server with SIGSTOP, its postmaster and every backend: connections stay open and calls go
     * unanswered, as with a server that hangs or a network partition mid-query. Only a class's own server
     * ({@link #ownServer()}) may be paused; {@link #resume()} lets it go on.
     */
    public void pause() throws IOException {
        ownedRunning().server.pause();
    }

    /** Lets a {@link #pause() paused} server go on (SIGCONT). */
    public void resume() throws IOException {
        ownedRunning().server.resume();
    }

    private Running ownedRunning() {
        port(); // fails the same way if JUnit did not start it
        if (shared) {
            throw new IllegalStateException("The shared PostgreSQL test server serves other test classes too; register "
                    + "PostgresServer.ownServer() to stop or pause one.");
        }
        return server;
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/" + database;
    }

    public int port() {
        if (server == null) {
            throw new IllegalStateException("PostgresServer is used before JUnit started it; register it as a "
                    + "static @RegisterExtension field.");
        }
        return server.port;
    }

    /** The started server; JUnit closes it when the whole test run ends. */
    static final class Running implements ExtensionContext.Store.CloseableResource {

        private final LocalPostgres server;
        private final int port;

        private Running(LocalPostgres server) {
            this.server = server;
            this.port = server.port();
        }

        static Running start() {
            return new Running(LocalPostgres.start(PASSWORD));
        }

        void stop() throws IOException {
            server.stop();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
