package io.lakesync.bench.contender;

import io.lakesync.bench.measure.Durations;
import io.lakesync.bench.measure.ProcessStats;
import io.lakesync.local.ProcessSignals;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A contender running in its own JVM (same classpath, same {@code --add-opens} flags as this one, the given
 * heap), driven through {@link ChildProtocol}. Its standard error goes to a log file.
 */
public final class ChildJvm implements AutoCloseable {

    /** Log4j configuration of the child processes (on the classpath, in this module's resources). */
    public static final String LOG_CONFIG = "lakesync-bench-log4j2.xml";
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(45);

    private final Process process;
    private final Path logFile;
    private final BlockingQueue<ChildProtocol.Event> events = new LinkedBlockingQueue<>();
    private final Thread reader;
    private volatile String failure;
    private boolean paused;

    private ChildJvm(Process process, Path logFile) {
        this.process = process;
        this.logFile = logFile;
        this.reader = new Thread(this::readEvents, "bench-child-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@link ContenderMain} with {@code args} in a new JVM of max heap {@code heap} (e.g. {@code 2g}). */
    static final String EXTRA_FLAGS_ENV = "BENCH_CONTENDER_JVM_OPTS";

    public static ChildJvm launch(ChildArgs args, String heap, Path logFile) throws IOException {
        return launch(ContenderMain.class, args, heap, logFile);
    }

    /** Starts {@code main}, a child that speaks {@link ChildProtocol}, as {@link #launch(ChildArgs, String, Path)} does. */
    public static ChildJvm launch(Class<?> main, ChildArgs args, String heap, Path logFile) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.add("-Xmx" + heap);
        command.addAll(inheritedFlags());
        command.addAll(extraFlags(System.getenv(EXTRA_FLAGS_ENV)));
        command.add("-Dlog4j2.configurationFile=" + LOG_CONFIG);
        command.add("-cp");
        command.add(loggingFirst(System.getProperty("java.class.path")));
        command.add(main.getName());
        command.addAll(args.toList());
        Process process =
                new ProcessBuilder(command)
                        .redirectError(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                        .start();
        return new ChildJvm(process, logFile);
    }

    /**
     * Flags from {@value #EXTRA_FLAGS_ENV} (space separated), added to every contender JVM: how to profile a
     * contender, e.g. {@code -XX:StartFlightRecording=filename=b.jfr}.
     */
    static List<String> extraFlags(String value) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        return List.of(value.trim().split("\\s+"));
    }

    /** This JVM's {@code --add-opens}/{@code --add-exports} and Netty flags, which Fluss needs in every JVM. */
    static List<String> inheritedFlags() {
        List<String> flags = new ArrayList<>();
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens") || arg.startsWith("--add-exports") || arg.startsWith("-Dio.netty.")) {
                flags.add(arg);
            }
        }
        if (flags.stream().noneMatch(f -> f.startsWith("--add-opens"))) {
            throw new IllegalStateException(
                    "The benchmark JVM was started without --add-opens flags; start it with the flags of the root "
                            + "pom property 'lakesync.jvm.opens' (the launcher does), the contenders inherit them.");
        }
        return flags;
    }

    /**
     * The classpath with the SLF4J 2 API and Log4j jars moved to the front: fluss-server and fluss-client
     * bundle an SLF4J 1.x API that would otherwise silence every log (a {@code lib/*} wildcard has no order).
     */
    static String loggingFirst(String classpath) {
        List<String> entries = List.of(classpath.split(File.pathSeparator));
        List<String> ordered = new ArrayList<>();
        entries.stream().filter(ChildJvm::isLoggingJar).forEach(ordered::add);
        entries.stream().filter(e -> !isLoggingJar(e)).forEach(ordered::add);
        return String.join(File.pathSeparator, ordered);
    }

    private static boolean isLoggingJar(String entry) {
        String name = Path.of(entry).getFileName() == null ? "" : Path.of(entry).getFileName().toString();
        return name.startsWith("slf4j-api-") || name.startsWith("log4j-");
    }

    public long pid() {
        return process.pid();
    }

    public Duration cpu() {
        return ProcessStats.cpu(process.toHandle());
    }

    /** CPU the contender's JIT compiler threads have used so far; empty where unknown. */
    public Optional<Duration> compilerCpu() {
        return ProcessStats.compilerCpu(process.pid());
    }

    public long peakRssBytes() {
        return ProcessStats.peakRssBytes(process.pid());
    }

    public Path logFile() {
        return logFile;
    }

    /** Why the contender stopped working, if it did: a FAILED message or its exit. Does not block. */
    public Optional<String> failure() {
        if (failure != null) {
            return Optional.of(failure);
        }
        if (!process.isAlive()) {
            return Optional.of("exited with code " + process.exitValue() + " (log: " + logFile + ")");
        }
        return Optional.empty();
    }

    /**
     * Waits for the next event of {@code type} and returns its payload.
     *
     * @throws ContenderFailedException when the contender reports a failure or exits first
     * @throws TimeoutException when {@code timeout} passes first
     */
    public Map<String, Object> await(ChildProtocol.Type type, Duration timeout)
            throws ContenderFailedException, TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException("no " + type + " from the contender within " + Durations.text(timeout));
            }
            ChildProtocol.Event event = events.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)),
                    TimeUnit.NANOSECONDS);
            if (event != null && event.type() == type) {
                return event.payload();
            }
            // A failure reported while running does not keep a stopping contender from reporting its figures.
            if (event != null && event.type() == ChildProtocol.Type.FAILED && type != ChildProtocol.Type.STATS) {
                throw new ContenderFailedException(String.valueOf(event.payload().get("message")));
            }
            if (event == null && !process.isAlive()) {
                // Its last lines may still be on their way through the reader.
                reader.join(TimeUnit.SECONDS.toMillis(5));
                if (events.isEmpty()) {
                    throw new ContenderFailedException(failure().orElse("exited"));
                }
            }
        }
    }

    /** The next event of any type, or empty when none arrives within {@code timeout}. */
    public Optional<ChildProtocol.Event> nextEvent(Duration timeout) throws InterruptedException {
        return Optional.ofNullable(events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS));
    }

    /**
     * Freezes the contender (SIGSTOP): none of its threads runs, so it takes no table and compiles nothing, until
     * {@link #resume}. Warm mode freezes it while the timed tables are queued: queueing many tables takes the
     * coordinator seconds, and a running contender would tier the first ones before the clock starts.
     */
    public void pause() {
        signal("STOP");
        paused = true;
    }

    /** Lets a {@linkplain #pause paused} contender run again (SIGCONT); nothing if it is not paused. */
    public void resume() {
        if (paused) {
            signal("CONT");
            paused = false;
        }
    }

    private void signal(String name) {
        try {
            ProcessSignals.send(name, List.of(process.pid()), "the contender");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run kill -" + name + " for the contender " + process.pid(), e);
        }
    }

    /** SIGKILL (on Linux), no warning; returns once the process is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /**
     * Tells the contender to stop and returns the figures it reports last (peak heap); empty if it reports none
     * in time. The process is killed if it does not exit in time.
     */
    public Map<String, Object> stop() throws InterruptedException {
        Map<String, Object> stats = Map.of();
        try {
            OutputStream in = process.getOutputStream();
            in.write((ChildProtocol.STOP + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            stats = await(ChildProtocol.Type.STATS, EXIT_TIMEOUT);
        } catch (IOException | ContenderFailedException | TimeoutException e) {
            // Already gone or stuck: nothing more to learn from it.
        }
        if (!process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        return stats;
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    private void readEvents() {
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                ChildProtocol.parse(line).ifPresent(event -> {
                    if (event.type() == ChildProtocol.Type.FAILED) {
                        failure = String.valueOf(event.payload().get("message"));
                    }
                    events.add(event);
                });
            }
        } catch (IOException e) {
            // The process is gone; failure() says so.
        }
    }
}
