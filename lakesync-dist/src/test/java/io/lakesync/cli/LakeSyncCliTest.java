package io.lakesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.folder.FolderLock;
import io.lakesync.local.LocalStackLock;
import io.lakesync.metrics.TableMetric;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.fluss.config.ConfigOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The command line in this JVM, for everything that ends before a stack starts: the configuration reference,
 * flag precedence and input errors. Running stacks are covered by {@link LakeSyncCliIT} in child processes.
 */
class LakeSyncCliTest {

    private static final String REFERENCE_START = "<!-- config-reference:start -->\n";
    private static final String REFERENCE_END = "<!-- config-reference:end -->";

    @TempDir Path tempDir;

    /** Exit code and output of one command. */
    private record Run(int exitCode, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = LakeSyncCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void configReferenceListsEveryOption() {
        Run run = run("config-reference");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo(ConfigReference.markdown()).startsWith("| Key | Type | Default |");
        for (ConfigOption<?> option : LakeSyncOptions.all()) {
            assertThat(run.out()).contains("| `" + option.key() + "` |").contains(option.description());
        }
        assertThat(run.out())
                .contains("| `service.port` | Integer | `8080` |")
                .contains("| `tiering.poll-interval` | Duration | `200 ms` |")
                .contains("`fluss.<option>`")
                .contains("`datalake.paimon.<option>`");
    }

    @Test
    void readmeHoldsTheCurrentConfigReference() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf(REFERENCE_START);
        int end = readme.indexOf(REFERENCE_END);
        assertThat(start).as("README.md marker %s", REFERENCE_START.trim()).isNotNegative();
        assertThat(end).as("README.md marker %s", REFERENCE_END).isGreaterThan(start);
        assertThat(readme.substring(start + REFERENCE_START.length(), end))
                .as("README.md's configuration reference; paste the output of './lakesync config-reference'")
                .isEqualTo(ConfigReference.markdown());
    }

    @Test
    void readmeServeExampleIsAValidConfig() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        String start = "<!-- serve-example:start -->\n```yaml\n";
        int from = readme.indexOf(start);
        int to = readme.indexOf("```\n<!-- serve-example:end -->");
        assertThat(from).as("README.md serve example").isNotNegative();
        Path file = tempDir.resolve("example.yaml");
        Files.writeString(file, readme.substring(from + start.length(), to));

        LakeSyncConfig config = LakeSyncConfig.load(file, Map.of());
        assertThat(config.flussClientOptions())
                .containsEntry("bootstrap.servers", "fluss-coordinator-0:9123,fluss-coordinator-1:9123")
                .containsEntry("client.security.protocol", "sasl");
        assertThat(config.lakeCatalogOptions()).containsEntry("warehouse", "/mnt/lake/warehouse");
        assertThat(config.get(LakeSyncOptions.SERVICE_PORT)).isEqualTo(8080);
        assertThat(config.get(LakeSyncOptions.TIERING_WORKERS)).isEqualTo(8);
    }

    @Test
    void flagsWinOverSetWhichWinsOverTheFile() throws IOException {
        Path file = tempDir.resolve("lakesync.yaml");
        Files.writeString(file, "service:\n  port: 1111\nlocal.coordinator.port: 1112\ndata.dir: /from/file\n");

        LakeSyncConfig fileOnly = localConfig("--config", file.toString());
        assertThat(fileOnly.get(LakeSyncOptions.SERVICE_PORT)).isEqualTo(1111);
        assertThat(fileOnly.get(LakeSyncOptions.LOCAL_COORDINATOR_PORT)).isEqualTo(1112);
        assertThat(fileOnly.get(LakeSyncOptions.DATA_DIR)).isEqualTo("/from/file");

        LakeSyncConfig withSet = localConfig(
                "--config", file.toString(), "--set", "service.port=2221", "--set", "local.coordinator.port=2222");
        assertThat(withSet.get(LakeSyncOptions.SERVICE_PORT)).isEqualTo(2221);
        assertThat(withSet.get(LakeSyncOptions.LOCAL_COORDINATOR_PORT)).isEqualTo(2222);

        LakeSyncConfig withFlags = localConfig(
                "--config", file.toString(), "--set", "service.port=2221", "--set", "local.coordinator.port=2222",
                "--port", "3331", "--fluss-port", "3332", "--data-dir", "/from/flag");
        assertThat(withFlags.get(LakeSyncOptions.SERVICE_PORT)).isEqualTo(3331);
        assertThat(withFlags.get(LakeSyncOptions.LOCAL_COORDINATOR_PORT)).isEqualTo(3332);
        assertThat(withFlags.get(LakeSyncOptions.DATA_DIR)).isEqualTo("/from/flag");

        assertThat(localConfig("--set", "local.tablet-servers=2").get(LakeSyncOptions.LOCAL_TABLET_SERVERS)).isEqualTo(2);
        assertThat(localConfig("--set", "local.tablet-servers=2", "--tablet-servers", "3")
                .get(LakeSyncOptions.LOCAL_TABLET_SERVERS)).isEqualTo(3);
    }

    @Test
    void theLocalStackSkipsTheWarmUpUnlessItIsSet() throws IOException {
        assertThat(localConfig().get(LakeSyncOptions.TIERING_WARM_UP)).isFalse();
        assertThat(localConfig("--set", "tiering.warm-up=true").get(LakeSyncOptions.TIERING_WARM_UP)).isTrue();

        Path file = tempDir.resolve("warm.yaml");
        Files.writeString(file, "tiering:\n  warm-up: true\n");
        assertThat(localConfig("--config", file.toString()).get(LakeSyncOptions.TIERING_WARM_UP)).isTrue();
    }

    @Test
    void commandsReadingALocalStackDirectlyUseThePortItLastListenedOnUnlessOneIsSet() throws IOException {
        Path dataDir = tempDir.resolve("stack");
        assertThat(bootstrapServersOf(dataDir)).isEqualTo("127.0.0.1:9123");

        Files.createDirectories(dataDir);
        // What a stack started with --fluss-port 0 leaves behind.
        Files.writeString(dataDir.resolve("ports.properties"), "local.coordinator.port=45678\n");
        assertThat(bootstrapServersOf(dataDir)).isEqualTo("127.0.0.1:45678");
        assertThat(bootstrapServersOf(dataDir, "--set", "local.coordinator.port=5555")).isEqualTo("127.0.0.1:5555");

        Files.writeString(dataDir.resolve("ports.properties"), "local.coordinator.port=not-a-port\n");
        assertThat(bootstrapServersOf(dataDir)).isEqualTo("127.0.0.1:9123");
    }

    @Test
    void clientCommandsFindTheLocalStackRunningInTheDataFolderUnlessAUrlIsGiven() throws IOException {
        Path dataDir = tempDir.resolve("running");
        Files.createDirectories(dataDir);
        assertThat(serviceUrlOf(dataDir)).as("no stack has run here").isEqualTo("http://127.0.0.1:8080");

        LocalServiceUrl.write(dataDir, "http://127.0.0.1:45123");
        assertThat(serviceUrlOf(dataDir)).isEqualTo("http://127.0.0.1:45123");
        assertThat(serviceUrlOf(dataDir, "--url", "http://lakesync.internal:8080"))
                .isEqualTo("http://lakesync.internal:8080");

        Files.writeString(dataDir.resolve(LocalServiceUrl.FILE_NAME), "not a url\n");
        assertThat(serviceUrlOf(dataDir)).as("an unusable file is ignored").isEqualTo("http://127.0.0.1:8080");

        LocalServiceUrl.delete(dataDir);
        assertThat(serviceUrlOf(dataDir)).isEqualTo("http://127.0.0.1:8080");
    }

    private static String serviceUrlOf(Path dataDir, String... flags) throws IOException {
        ApiClient api = new ApiClient();
        String[] args = new String[flags.length + 2];
        args[0] = "--data-dir";
        args[1] = dataDir.toString();
        System.arraycopy(flags, 0, args, 2, flags.length);
        new CommandLine(api).parseArgs(args);
        return api.url().toString();
    }

    private static String bootstrapServersOf(Path dataDir, String... flags) {
        ClusterTarget target = new ClusterTarget();
        new CommandLine(target).parseArgs(flags);
        return target.load(dataDir).flussClientOptions().get("bootstrap.servers");
    }

    private static LakeSyncConfig localConfig(String... flags) {
        String[] args = new String[flags.length + 1];
        args[0] = "local";
        System.arraycopy(flags, 0, args, 1, flags.length);
        CommandLine.ParseResult parsed = new CommandLine(new LakeSyncCli()).parseArgs(args);
        LocalCommand local = parsed.subcommand().commandSpec().commandLine().getCommand();
        return local.config();
    }

    @Test
    void unknownKeyInTheFileFailsNamingKeyWithoutStackTrace() throws IOException {
        Path file = tempDir.resolve("lakesync.yaml");
        Files.writeString(file, "service:\n  prot: 8080\n");
        Run run = run("local", "--config", file.toString());
        assertThat(run.exitCode()).isEqualTo(LakeSyncCli.BAD_INPUT);
        assertThat(run.err()).startsWith("lakesync: Unknown config key 'service.prot'").contains(file.toString());
        assertThat(run.err().lines()).hasSize(1);
    }

    @Test
    void malformedValueFailsNamingKey() {
        Run run = run("local", "--set", "tiering.workers=many");
        assertThat(run.exitCode()).isEqualTo(LakeSyncCli.BAD_INPUT);
        assertThat(run.err()).contains("'many'").contains("'tiering.workers'");
        assertThat(run.err().lines()).hasSize(1);
    }

    @Test
    void malformedFlagFailsNamingTheFlag() {
        Run run = run("local", "--port", "abc");
        assertThat(run.exitCode()).isEqualTo(LakeSyncCli.BAD_INPUT);
        assertThat(run.err()).contains("--port").contains("'abc'");
    }

    @Test
    void busyServicePortFailsBeforeAnythingStarts() throws IOException {
        Path dataDir = tempDir.resolve("data");
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            int port = taken.getLocalPort();
            Run run = run("local", "--data-dir", dataDir.toString(), "--port", String.valueOf(port));
            assertThat(run.exitCode()).isEqualTo(LakeSyncCli.BAD_INPUT);
            assertThat(run.err()).contains("'service.port'").contains("Port " + port + " ");
            assertThat(run.err().lines()).hasSize(1);
        }
        assertThat(dataDir).as("nothing started, so no data folder").doesNotExist();
    }

    @Test
    void aDataFolderInUseByAnotherLocalStackFailsBeforeAnythingStarts() throws IOException {
        Path dataDir = tempDir.resolve("data");
        try (FolderLock running = LocalStackLock.acquire(dataDir)) {
            Run run = run("local", "--data-dir", dataDir.toString(), "--port", "0");
            assertThat(run.exitCode()).isEqualTo(LakeSyncCli.BAD_INPUT);
            assertThat(run.err()).contains("Data folder " + dataDir).contains("'data.dir'")
                    .contains("in use by another local stack");
            assertThat(run.err().lines()).hasSize(1);
            assertThat(dataDir.resolve("zookeeper")).as("nothing started").doesNotExist();
        }
        try (FolderLock again = LocalStackLock.acquire(dataDir)) {
            assertThat(again).as("released with the stack that held it").isNotNull();
        }
    }

    @Test
    void noCommandPrintsUsage() {
        Run run = run();
        assertThat(run.exitCode()).isEqualTo(LakeSyncCli.BAD_INPUT);
        assertThat(run.err()).contains("local").contains("serve").contains("config-reference");
        assertThat(run.err()).contains("Exit codes:").contains("2   bad usage or configuration");
    }

    @Test
    void anUnknownCommandFailsEvenWithHelpAndSuggestsTheNearest() {
        Run typo = run("frobnicate", "--help");
        assertThat(typo.exitCode()).isEqualTo(LakeSyncCli.BAD_INPUT);
        assertThat(typo.out()).isEmpty();
        assertThat(typo.err()).startsWith("lakesync: unknown command 'frobnicate'; the commands are: local, serve,");
        assertThat(typo.err().lines()).hasSize(1);

        Run near = run("serv");
        assertThat(near.exitCode()).isEqualTo(LakeSyncCli.BAD_INPUT);
        assertThat(near.err()).startsWith("lakesync: unknown command 'serv'; did you mean 'serve'");
        assertThat(near.err().lines()).hasSize(1);
    }

    @Test
    void setRuleHelpListsEveryMetricARuleCanWatch() {
        Run help = run("alerts", "set-rule", "--help");
        assertThat(help.exitCode()).isZero();
        for (TableMetric metric : TableMetric.values()) {
            assertThat(help.out()).contains(metric.id());
        }
    }

    @Test
    void anUnknownOptionOrArgumentFailsNamingItAndTheCommand() {
        Run option = run("serve", "--prot", "8080", "--help");
        assertThat(option.exitCode()).isEqualTo(LakeSyncCli.BAD_INPUT);
        assertThat(option.out()).isEmpty();
        assertThat(option.err()).startsWith("lakesync: lakesync serve: unknown option '--prot'; did you mean '--port'")
                .contains("(see 'lakesync serve --help')");
        assertThat(option.err().lines()).hasSize(1);

        Run argument = run("config-reference", "extra");
        assertThat(argument.exitCode()).isEqualTo(LakeSyncCli.BAD_INPUT);
        assertThat(argument.err()).startsWith("lakesync: lakesync config-reference: unexpected argument 'extra'");
        assertThat(argument.err().lines()).hasSize(1);

        Run missing = run("migrate");
        assertThat(missing.exitCode()).isEqualTo(LakeSyncCli.BAD_INPUT);
        assertThat(missing.err()).contains("--flink-url").contains("(see 'lakesync migrate --help')");
        assertThat(missing.err().lines()).hasSize(1);
    }

    @Test
    void versionIsTheBuildVersion() {
        Run run = run("--version");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out().trim()).matches("lakesync \\d+\\.\\d+\\.\\d+.*").doesNotContain("${");
    }
}
