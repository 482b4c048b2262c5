package io.lakesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.local.ClusterTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rule for failures, over every command: bad or missing config, an unreachable server, an unsupported
 * storage scheme or a refused migration prints one line on stderr that names what to change, exits with the
 * documented code, and no stack trace reaches the terminal. The cases run in one child JVM ({@link CliCases})
 * on the packaged jar and its own log4j2.xml, so the terminal shows what a user's would. Stop signals are in
 * {@link LakeSyncCliIT}, which has the running stacks.
 */
@ClusterTest
class TerminalOutputIT {

    private static final Path TARGET = Path.of("target").toAbsolutePath();
    private static final String NO_SERVICE_LINE = "lakesync: No lakesync service answers at ";

    @TempDir Path tempDir;

    /** One command line, the exit code it must end with and the start of its one stderr line. */
    private record Case(int exitCode, String errorStart, String... args) {}

    @Test
    void everyCommandAnswersBadInputWithOneLineAndNoStackTrace() throws Exception {
        String data = tempDir.resolve("data").toString();
        String missingFile = tempDir.resolve("missing.yaml").toString();
        String noService = "http://127.0.0.1:" + ClosedPort.pick();
        String noFluss = "127.0.0.1:" + ClosedPort.pick();
        List<Case> cases = List.of(
                new Case(2, "lakesync: unknown command 'frobnicate'; the commands are: local, serve", "frobnicate", "--help"),
                new Case(2, "lakesync: lakesync local: unknown option '--fluss-prot'; did you mean '--fluss-port'?",
                        "local", "--fluss-prot", "9123"),
                new Case(2, "lakesync: Invalid value 'many' for config key 'tiering.workers'",
                        "local", "--set", "tiering.workers=many"),
                new Case(2, "lakesync: Config file " + missingFile + " does not exist", "local", "--config", missingFile),
                new Case(2, "lakesync: Missing config key 'fluss.bootstrap.servers'", "serve", "--data-dir", data),
                new Case(1, "lakesync: failed to start: Cannot reach the Fluss cluster at " + noFluss
                        + " ('fluss.bootstrap.servers') to read its lake settings",
                        "serve", "--data-dir", data, "--port", "0", "--set", "fluss.bootstrap.servers=" + noFluss),
                new Case(2, "lakesync: The lake's storage is not supported, check config key "
                        + "'datalake.paimon.warehouse': Could not find a file io implementation for scheme 'gs'",
                        "serve", "--data-dir", data, "--port", "0", "--set", "fluss.bootstrap.servers=" + noFluss,
                        "--set", "datalake.paimon.warehouse=gs://bucket/warehouse"),
                new Case(1, NO_SERVICE_LINE + noService, "status", "--url", noService),
                new Case(2, "lakesync: lakesync status: Missing required parameter for option '--token'",
                        "status", "--token"),
                new Case(2, "lakesync: A table is named <database>.<table>, got 'orders'",
                        "tables", "enable", "orders", "--url", noService),
                new Case(1, NO_SERVICE_LINE + noService, "tables", "enable", "shop.orders", "--url", noService),
                new Case(1, NO_SERVICE_LINE + noService, "alerts", "rules", "--url", noService),
                new Case(1, NO_SERVICE_LINE + noService, "service", "enable", "--url", noService),
                new Case(1, NO_SERVICE_LINE + noService, "instances", "--url", noService),
                new Case(1, NO_SERVICE_LINE + noService, "usage", "--url", noService),
                new Case(2, "lakesync: lakesync config-reference: unexpected argument 'extra'", "config-reference", "extra"),
                new Case(2, "lakesync: name one table as DB.TABLE, or pass --all.", "verify", "--data-dir", data),
                new Case(1, "lakesync: lakesync verify failed: Cannot reach the Fluss cluster at " + noFluss
                        + " ('fluss.bootstrap.servers') to read its lake settings",
                        "verify", "--all", "--set", "fluss.bootstrap.servers=" + noFluss),
                new Case(2, "lakesync: lakesync migrate: Missing required option: '--flink-url=URL'", "migrate"),
                new Case(1, "lakesync: lakesync cannot take over: " + NO_SERVICE_LINE.substring("lakesync: ".length())
                        + noService, "migrate", "--flink-url", noService, "--url", noService));

        Path casesFile = tempDir.resolve("cases.txt");
        Files.write(casesFile, cases.stream().map(c -> String.join("\t", c.args())).toList());
        Path out = tempDir.resolve("stdout.txt");
        Path err = tempDir.resolve("stderr.txt");
        Process child = new ProcessBuilder(childCommand(casesFile))
                .directory(tempDir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!child.waitFor(5, TimeUnit.MINUTES)) {
            child.destroyForcibly();
            throw new AssertionError("The cases did not finish within 5 minutes. stdout:\n" + Files.readString(out));
        }
        String stdout = Files.readString(out);
        String stderr = Files.readString(err);
        assertThat(child.exitValue()).as("the case runner; stderr:\n%s", stderr).isZero();

        List<String> errors = split(stderr, cases.size());
        SoftAssertions softly = new SoftAssertions();
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            String command = "lakesync " + String.join(" ", c.args());
            softly.assertThat(stdout).as("exit code of %s", command).contains(CliCases.EXIT + i + " " + c.exitCode() + "\n");
            softly.assertThat(errors.get(i).lines()).as("stderr of %s", command).hasSize(1);
            softly.assertThat(errors.get(i)).as("stderr of %s", command).startsWith(c.errorStart());
        }
        softly.assertThat(StackTraces.in(stdout + stderr)).as("stack-trace lines in the terminal output").isEmpty();
        softly.assertAll();
    }

    /** The stderr of each case, by the markers {@link CliCases} writes. */
    private static List<String> split(String stderr, int count) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String marker = CliCases.MARKER + i + "\n";
            int from = stderr.indexOf(marker);
            assertThat(from).as("marker of case %d in stderr:\n%s", i, stderr).isNotNegative();
            int to = i + 1 < count ? stderr.indexOf(CliCases.MARKER + (i + 1) + "\n") : stderr.length();
            parts.add(stderr.substring(from + marker.length(), to < 0 ? stderr.length() : to));
        }
        return parts;
    }

    /** Java with the launcher's flags, the packaged jar (its manifest names the libraries) and its log4j2.xml. */
    private static List<String> childCommand(Path casesFile) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(List.of(Files.readString(TARGET.resolve("jvm-flags")).trim().split("\\s+")));
        command.add("-Dlog4j2.configurationFile=" + TARGET.resolve("classes/log4j2.xml"));
        command.add("-cp");
        command.add(TARGET.resolve("lakesync-dist.jar") + ":" + TARGET.resolve("test-classes"));
        command.add(CliCases.class.getName());
        command.add(casesFile.toString());
        return command;
    }
}
