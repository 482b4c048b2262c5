package io.lakesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of the packaged {@code ./lakesync} (what the build packaged) in a child process, its stdout and stderr
 * going to files in a folder of its own. The launcher execs java, so {@link #process} is the JVM's.
 */
public final class Child implements AutoCloseable {

    private static final Path LAUNCHER = Path.of("..", "lakesync").toAbsolutePath().normalize();
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);
    private static final String STDOUT = "stdout.txt";
    private static final String STDERR = "stderr.txt";

    public final Process process;
    private final Path outputs;

    private Child(Process process, Path outputs) {
        this.process = process;
        this.outputs = outputs;
    }

    public static Child start(Path workDir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("bash", LAUNCHER.toString()));
        command.addAll(List.of(args));
        Path outputs = Files.createTempDirectory(workDir, "child");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(outputs.resolve(STDOUT).toFile())
                .redirectError(outputs.resolve(STDERR).toFile());
        builder.environment().put("LAKESYNC_SKIP_BUILD", "1");
        // C1 only, as the test JVMs run (the root pom's lakesync.test.jit): a child's start-up costs less CPU.
        builder.environment().put("LAKESYNC_JAVA_OPTS", "-XX:TieredStopAtLevel=1");
        return new Child(builder.start(), outputs);
    }

    /** Waits for a line of stdout matching {@code pattern} and returns its first group. */
    public String awaitOutput(Pattern pattern, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Matcher matcher = pattern.matcher(output());
            if (matcher.find()) {
                return matcher.group(1);
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("No output matching '" + pattern + "' within " + timeout
                        + (process.isAlive() ? "" : " (exited " + process.exitValue() + ")")
                        + ". stdout:\n" + output() + "\nstderr:\n" + errors());
            }
            Thread.sleep(100);
        }
    }

    public int awaitExit(Duration timeout) throws Exception {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("Still running after " + timeout + ". stdout:\n" + output());
        }
        return process.exitValue();
    }

    public void signal(String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid())).start();
        assertThat(kill.waitFor()).isZero();
    }

    /** Whether the process ignores {@code signal}, from the SigIgn mask in /proc/PID/status. */
    public boolean ignores(int signal) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status"))) {
            if (line.startsWith("SigIgn:")) {
                long mask = Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16);
                return (mask & (1L << (signal - 1))) != 0;
            }
        }
        return false;
    }

    /** The process's arguments as every user of the machine sees them, separated by spaces. */
    public String commandLine() throws IOException {
        byte[] raw = Files.readAllBytes(Path.of("/proc", String.valueOf(process.pid()), "cmdline"));
        return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ');
    }

    public String output() throws IOException {
        return Files.readString(outputs.resolve(STDOUT));
    }

    public String errors() throws IOException {
        return Files.readString(outputs.resolve(STDERR));
    }

    @Override
    public void close() throws Exception {
        process.destroyForcibly();
        process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }
}
