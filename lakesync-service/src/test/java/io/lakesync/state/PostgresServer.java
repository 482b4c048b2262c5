package io.lakesync.state;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real, throwaway PostgreSQL server for tests, run from the Debian binaries under
 * {@code /usr/lib/postgresql/<version>/bin} (installed by {@code build-support/test-deps/postgresql.sh}).
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

    public static final String SUPERUSER = "lakesync";
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
     * Stops the server for good, to see what lakesync does when its state database goes away. Only a class's own
     * server ({@link #ownServer()}) may be stopped: the shared one serves the other classes of the run's JVM.
     */
    public void stop() throws IOException {
        ownedRunning().stop();
    }

    /**
     * Freezes the server with SIGSTOP, its postmaster and every backend: connections stay open and calls go
     * unanswered, as with a server that hangs or a network partition mid-query. Only a class's own server
     * ({@link #ownServer()}) may be paused; {@link #resume()} lets it go on.
     */
    public void pause() throws IOException {
        ownedRunning().signal("STOP");
    }

    /** Lets a {@link #pause() paused} server go on (SIGCONT). */
    public void resume() throws IOException {
        ownedRunning().signal("CONT");
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

        private static final Path INSTALL_ROOT = Path.of("/usr/lib/postgresql");
        private static final String INSTALLER = "build-support/test-deps/postgresql.sh";

        private final Path binaries;
        private final Path home;
        private final int port;
        private final boolean asPostgresUser;
        private boolean stopped;

        private Running(Path binaries, Path home, int port, boolean asPostgresUser) {
            this.binaries = binaries;
            this.home = home;
            this.port = port;
            this.asPostgresUser = asPostgresUser;
        }

        static Running start() {
            Path binaries = findBinaries();
            boolean asPostgresUser = new UnixSystem().getUid() == 0;
            try {
                Path home = Files.createTempDirectory("lakesync-postgres-");
                Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
                Path passwordFile = Files.writeString(home.resolve("password"), PASSWORD, StandardCharsets.UTF_8);
                if (asPostgresUser) {
                    UserPrincipal postgres = home.getFileSystem().getUserPrincipalLookupService()
                            .lookupPrincipalByName("postgres");
                    Files.setOwner(home, postgres);
                    Files.setOwner(passwordFile, postgres);
                }
                Running initialized = new Running(binaries, home, 0, asPostgresUser);
                initialized.run("initdb", "-D", initialized.dataDir(), "-U", SUPERUSER, "--pwfile=" + passwordFile,
                        "--auth=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync");
                // The free port may be taken again before the server binds it; then try another.
                for (int attempt = 1; ; attempt++) {
                    Running server = new Running(binaries, home, freePort(), asPostgresUser);
                    try {
                        server.run("pg_ctl", "-D", server.dataDir(), "-l", home.resolve("server.log").toString(),
                                "-w", "-t", "60", "-o", "-p " + server.port + " -h 127.0.0.1 -k " + home
                                        + " -F -c synchronous_commit=off -c full_page_writes=off", "start");
                        return server;
                    } catch (IllegalStateException e) {
                        if (attempt == 3) {
                            throw e;
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot prepare a PostgreSQL test server", e);
            }
        }

        synchronized void stop() throws IOException {
            if (!stopped) {
                run("pg_ctl", "-D", dataDir(), "-m", "immediate", "-w", "stop");
                stopped = true;
            }
        }

        /**
         * Sends {@code signal} to the postmaster (its pid is the first line of postmaster.pid) and its backends; a
         * backend that ended meanwhile is no error.
         */
        synchronized void signal(String signal) throws IOException {
            long postmaster = Long.parseLong(Files.readAllLines(Path.of(dataDir(), "postmaster.pid")).get(0).trim());
            List<String> backends = ProcessHandle.of(postmaster).orElseThrow().descendants()
                    .map(backend -> String.valueOf(backend.pid())).toList();
            if (kill(signal, List.of(String.valueOf(postmaster))) != 0) {
                throw new IllegalStateException("Could not send SIG" + signal + " to PostgreSQL (pid " + postmaster + ")");
            }
            if (!backends.isEmpty()) {
                kill(signal, backends);
            }
        }

        private static int kill(String signal, List<String> pids) throws IOException {
            List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
            command.addAll(pids);
            try {
                Process kill = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (!kill.waitFor(30, TimeUnit.SECONDS)) {
                    kill.destroyForcibly();
                    throw new IllegalStateException("kill did not finish within 30 s: " + command);
                }
                return kill.exitValue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while running " + command, e);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                if (!stopped) {
                    signal("CONT"); // a test that failed while the server was paused must not leave it frozen
                }
                stop();
            } finally {
                try (Stream<Path> files = Files.walk(home)) {
                    files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
                }
            }
        }

        private String dataDir() {
            return home.resolve("data").toString();
        }

        private void run(String program, String... args) throws IOException {
            List<String> command = new ArrayList<>();
            if (asPostgresUser) {
                command.addAll(List.of("runuser", "-u", "postgres", "--"));
            }
            command.add(binaries.resolve(program).toString());
            command.addAll(List.of(args));
            Path output = Files.createTempFile("lakesync-postgres-" + program, ".out");
            try {
                Process process = new ProcessBuilder(command)
                        .directory(home.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .start();
                if (!process.waitFor(90, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new IllegalStateException(program + " did not finish within 90 s: " + command);
                }
                if (process.exitValue() != 0) {
                    String log = Files.isRegularFile(home.resolve("server.log"))
                            ? Files.readString(home.resolve("server.log")) : "";
                    throw new IllegalStateException(program + " failed with exit code " + process.exitValue()
                            + ": " + command + "\n" + Files.readString(output) + log);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while running " + command, e);
            } finally {
                Files.deleteIfExists(output);
            }
        }

        private static Path findBinaries() {
            Optional<Path> newest = Optional.empty();
            if (Files.isDirectory(INSTALL_ROOT)) {
                try (Stream<Path> versions = Files.list(INSTALL_ROOT)) {
                    newest = versions
                            .filter(dir -> Files.isExecutable(dir.resolve("bin/initdb")))
                            .filter(dir -> dir.getFileName().toString().matches("\\d+"))
                            .max(Comparator.comparingInt(dir -> Integer.parseInt(dir.getFileName().toString())));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return newest.map(dir -> dir.resolve("bin")).orElseThrow(() -> new IllegalStateException(
                    "No PostgreSQL server binaries under " + INSTALL_ROOT + "/<version>/bin; run " + INSTALLER
                            + " (or apt-get install postgresql) first."));
        }

        private static int freePort() throws IOException {
            try (ServerSocket socket = new ServerSocket(0)) {
                return socket.getLocalPort();
            }
        }
    }
}
