package io.lakesync.local;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real, throwaway PostgreSQL server run from the Debian binaries under {@code /usr/lib/postgresql/<version>/bin}
 * (installed by {@code build-support/test-deps/postgresql.sh}): the state database of tests and of the fault
 * campaign, which stops, freezes and restarts it.
 *
 * <p>It listens on 127.0.0.1 and a free port (kept across {@link #restart}s, so clients reconnect to the same
 * address), keeps its data in a temporary folder with fsync off, takes password logins only, and is deleted on
 * {@link #close()}. PostgreSQL refuses to run as root, so as root it runs as the {@code postgres} OS user the
 * Debian package creates.
 */
public final class LocalPostgres implements AutoCloseable {

    public static final String SUPERUSER = "lakesync";

    private static final Path INSTALL_ROOT = Path.of("/usr/lib/postgresql");
    private static final String INSTALLER = "build-support/test-deps/postgresql.sh";
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(90);

    private final Path binaries;
    private final Path home;
    private final String password;
    private final boolean asPostgresUser;
    /** Stops the server if the JVM ends before {@link #close()}: a PostgreSQL left behind would hold its port. */
    private final Thread stopAtExit = new Thread(this::stopQuietly, "local-postgres-stop");
    private int port;
    private boolean running;

    private LocalPostgres(Path binaries, Path home, String password, boolean asPostgresUser) {
        this.binaries = binaries;
        this.home = home;
        this.password = password;
        this.asPostgresUser = asPostgresUser;
    }

    /** Initializes a new server whose {@link #SUPERUSER} logs in with {@code password}, and starts it. */
    public static LocalPostgres start(String password) {
        Path binaries = findBinaries();
        boolean asPostgresUser = new UnixSystem().getUid() == 0;
        try {
            Path home = Files.createTempDirectory("lakesync-postgres-");
            Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
            Path passwordFile = Files.writeString(home.resolve("password"), password, StandardCharsets.UTF_8);
            if (asPostgresUser) {
                UserPrincipal postgres = home.getFileSystem().getUserPrincipalLookupService()
                        .lookupPrincipalByName("postgres");
                Files.setOwner(home, postgres);
                Files.setOwner(passwordFile, postgres);
            }
            LocalPostgres server = new LocalPostgres(binaries, home, password, asPostgresUser);
            Runtime.getRuntime().addShutdownHook(server.stopAtExit);
            server.run("initdb", "-D", server.dataDir(), "-U", SUPERUSER, "--pwfile=" + passwordFile,
                    "--auth=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync");
            // The free port may be taken again before the server binds it; then try another.
            for (int attempt = 1; ; attempt++) {
                server.port = freePort();
                try {
                    server.startOnPort();
                    return server;
                } catch (IllegalStateException e) {
                    if (attempt == 3) {
                        server.close();
                        throw e;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot prepare a PostgreSQL server", e);
        }
    }

    public int port() {
        return port;
    }

    public String password() {
        return password;
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** Creates an empty database {@code name} owned by {@link #SUPERUSER}; returns its JDBC URL. */
    public String createDatabase(String name) throws IOException {
        execute(List.of(binaries.resolve("createdb").toString(), "-h", "127.0.0.1", "-p", Integer.toString(port), "-U",
                SUPERUSER, name), Map.of("PGPASSWORD", password));
        return jdbcUrl(name);
    }

    /** Stops the server at once, as a crash would (no checkpoint, clients cut off). */
    public synchronized void stop() throws IOException {
        if (running) {
            run("pg_ctl", "-D", dataDir(), "-m", "immediate", "-w", "stop");
            running = false;
        }
    }

    /** Starts the stopped server again, on the same port. */
    public synchronized void restart() throws IOException {
        if (!running) {
            startOnPort();
        }
    }

    /** Freezes every process of the server (SIGSTOP): connections stay open, nothing answers. */
    public void pause() throws IOException {
        signal("STOP");
    }

    /** Lets the frozen server go on (SIGCONT). */
    public void resume() throws IOException {
        signal("CONT");
    }

    /** Stops the server and deletes its folder. */
    @Override
    public void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(stopAtExit);
        } catch (IllegalStateException exiting) {
            // The hook is running or ran.
        }
        try {
            resume();
            stop();
        } finally {
            try (Stream<Path> files = Files.walk(home)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private void stopQuietly() {
        try {
            resume();
            stop();
        } catch (IOException | RuntimeException e) {
            System.err.println("Could not stop the PostgreSQL server in " + home + ": " + e);
        }
    }

    private void startOnPort() throws IOException {
        run("pg_ctl", "-D", dataDir(), "-l", home.resolve("server.log").toString(), "-w", "-t", "60", "-o",
                "-p " + port + " -h 127.0.0.1 -k " + home + " -F -c synchronous_commit=off -c full_page_writes=off",
                "start");
        running = true;
    }

    /**
     * Sends {@code signal} to the postmaster and every backend it forked (a frozen postmaster alone still serves).
     * To freeze, the postmaster stops first so that it forks no more, then its children until none is new: a
     * backend forked while the first listing ran would otherwise keep answering.
     */
    private synchronized void signal(String signal) throws IOException {
        if (!running) {
            return;
        }
        long postmaster = Long.parseLong(Files.readAllLines(Path.of(dataDir(), "postmaster.pid")).get(0).trim());
        Set<Long> signalled = new HashSet<>();
        if (signal.equals("STOP")) {
            ProcessSignals.send(signal, List.of(postmaster), "PostgreSQL");
            signalled.add(postmaster);
        }
        while (true) {
            List<Long> children = ProcessHandle.of(postmaster).stream()
                    .flatMap(ProcessHandle::descendants)
                    .map(ProcessHandle::pid)
                    .filter(pid -> !signalled.contains(pid))
                    .toList();
            if (children.isEmpty()) {
                break;
            }
            ProcessSignals.send(signal, children, "PostgreSQL");
            signalled.addAll(children);
        }
        if (!signalled.contains(postmaster)) {
            ProcessSignals.send(signal, List.of(postmaster), "PostgreSQL");
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
        execute(command, Map.of());
    }

    private void execute(List<String> command, Map<String, String> environment) throws IOException {
        Path output = Files.createTempFile("lakesync-postgres-", ".out");
        try {
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().putAll(environment);
            Process process = builder
                    .directory(home.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            if (!process.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(command.get(0) + " did not finish within " + COMMAND_TIMEOUT.toSeconds()
                        + " s: " + command);
            }
            if (process.exitValue() != 0) {
                String log = Files.isRegularFile(home.resolve("server.log")) ? Files.readString(home.resolve("server.log")) : "";
                throw new IllegalStateException(command.get(0) + " failed with exit code " + process.exitValue() + ": "
                        + command + "\n" + Files.readString(output) + log);
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
