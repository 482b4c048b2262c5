package io.lakesync.cli;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.local.ClusterTest;
import io.lakesync.local.LocalFlussCluster;
import io.lakesync.state.PostgresServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The packaged command line, run the way users run it ({@code ./lakesync} with what the build packaged) in a
 * child JVM: the local stack starts, serves {@code /health}, stops cleanly on SIGINT and SIGTERM (its demo
 * writer too, without an error line), resumes on the same data folder; {@code serve} needs only a cluster's
 * address and stops within its bound whatever is down; start-up failures end the process with one line on
 * stderr. The tests run side by side: each has its own folders and free ports.
 */
@Execution(ExecutionMode.CONCURRENT)
@ClusterTest
class LakeSyncCliIT {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);
    /** A loaded machine's JVM exit after the stop bound; well short of the 100 s a stop once took. */
    private static final Duration STOP_BOUND_SLACK = Duration.ofSeconds(15);
    private static final Pattern SERVICE_URL = Pattern.compile("Service URL\\s+(http://\\S+)");
    private static final Pattern BOOTSTRAP = Pattern.compile("Fluss bootstrap servers\\s+(\\S+)");
    private static final Pattern WAREHOUSE = Pattern.compile("Paimon warehouse\\s+(\\S+)");
    private static final Pattern DEMO_STATUS = Pattern.compile("(fluss\\.datalake_orders)\\s+\\S+\\s+fluss=");
    private static final Pattern ORDERS_TIERED =
            Pattern.compile("Table (it\\.orders): tiered \\d+ records into lake snapshot");
    private static final TablePath ORDERS = TablePath.of("it", "orders");
    private static final int SIGINT = 2;

    @RegisterExtension static final PostgresServer POSTGRES = PostgresServer.ownServer();

    @TempDir Path tempDir;

    @Test
    void localStackServesStopsCleanlyAndResumesOnTheSameDataFolder() throws Exception {
        Path dataDir = tempDir.resolve("data");
        try (Child first = Child.start(tempDir, "local", "--data-dir", dataDir.toString(), "--port", "0",
                "--fluss-port", "0", "--demo")) {
            String serviceUrl = first.awaitOutput(SERVICE_URL, READY_TIMEOUT);
            assertHealthy(serviceUrl);
            assertThat(LocalServiceUrl.read(dataDir)).as("where client commands find the stack's free port")
                    .hasToString(serviceUrl);
            createLakeTable(first.awaitOutput(BOOTSTRAP, Duration.ZERO));
            assertThat(first.output()).contains("Paimon warehouse", dataDir.resolve("warehouse").toString());

            String noFlink = "http://127.0.0.1:" + ClosedPort.pick();
            try (Child migrate = Child.start(tempDir, "migrate", "--flink-url", noFlink, "--data-dir", dataDir.toString())) {
                first.awaitOutput(DEMO_STATUS, READY_TIMEOUT); // the demo writer is busy now
                assertMigrationFailedOnOneLine(migrate, noFlink);
            }

            // Ctrl-C; a child of a shell that ignores SIGINT (a background job) inherits that, so SIGTERM then.
            int beforeStop = first.output().length();
            first.signal(first.ignores(SIGINT) ? "TERM" : "INT");
            assertThat(first.awaitExit(EXIT_TIMEOUT)).isZero();
            assertThat(first.output()).contains("Stopped; data kept in " + dataDir);
            assertThat(first.errors()).isEmpty();
            assertThat(first.output().substring(beforeStop).lines().filter(line -> line.contains(" ERROR ")))
                    .as("ERROR lines of a stopping demo").isEmpty();
            assertThat(StackTraces.in(first.output())).isEmpty();
            assertThat(LocalServiceUrl.read(dataDir)).as("a stopped stack serves nowhere").isNull();
        }
        try (Child second = Child.start(tempDir, "local", "--data-dir", dataDir.toString(), "--port", "0",
                "--fluss-port", "0")) {
            // The demo's last rows wait in Fluss, their age unknown until the first rounds: UP once they are in.
            String resumedUrl = second.awaitOutput(SERVICE_URL, READY_TIMEOUT);
            eventually(READY_TIMEOUT, () -> assertHealthy(resumedUrl));
            try (Connection connection = connect(second.awaitOutput(BOOTSTRAP, Duration.ZERO))) {
                assertThat(connection.getAdmin().tableExists(ORDERS).get()).isTrue();
            }
            second.process.destroy(); // SIGTERM
            assertThat(second.awaitExit(EXIT_TIMEOUT)).isZero();
            assertThat(second.output()).contains("Stopped; data kept in " + dataDir);
        }
    }

    /** Checks what migrate printed, given a Flink REST endpoint that does not answer and a lakesync that does. */
    private static void assertMigrationFailedOnOneLine(Child migrate, String flinkUrl) throws Exception {
        assertThat(migrate.awaitExit(EXIT_TIMEOUT)).isEqualTo(LakeSyncCli.START_FAILED);
        assertThat(migrate.errors().lines()).hasSize(1);
        assertThat(migrate.errors()).startsWith("lakesync: ").contains(flinkUrl.substring("http://".length()));
        assertThat(StackTraces.in(migrate.output() + migrate.errors())).isEmpty();
    }

    /**
     * A Fluss cluster with a lake configured and no other tiering service: serve given only its address (and a
     * PostgreSQL state database) reads the lake from the cluster and tiers its tables; with the database gone,
     * SIGTERM still ends it within its bound, on one line at most.
     */
    @Test
    void serveNeedsOnlyTheBootstrapServersAndStopsWithinItsBoundWithItsStateDatabaseDown() throws Exception {
        LakeSyncConfig stack = LakeSyncConfig.fromMap(Map.of(LakeSyncOptions.DATA_DIR.key(),
                tempDir.resolve("fluss").toString(), LakeSyncOptions.LOCAL_COORDINATOR_PORT.key(), "0"), "test");
        try (LocalFlussCluster cluster = LocalFlussCluster.start(stack,
                Map.of(ConfigOptions.TABLET_SERVER_CONTROLLED_SHUTDOWN_MAX_RETRIES.key(), "0"))) {
            createLakeTable(cluster.bootstrapServers());
            writeOrders(cluster.bootstrapServers());
            Path config = tempDir.resolve("lakesync.yaml");
            Files.writeString(config, String.join("\n",
                    "fluss.bootstrap.servers: " + cluster.bootstrapServers(),
                    "tiering.warm-up: false",
                    "state:",
                    "  jdbc-url: " + POSTGRES.newDatabase(),
                    "  jdbc-user: " + PostgresServer.SUPERUSER,
                    "  jdbc-password: " + PostgresServer.PASSWORD,
                    ""));
            try (Child serve = Child.start(tempDir, "serve", "--config", config.toString(),
                    "--data-dir", tempDir.resolve("serve").toString(), "--port", "0")) {
                assertHealthy(serve.awaitOutput(SERVICE_URL, READY_TIMEOUT));
                assertThat(serve.awaitOutput(WAREHOUSE, Duration.ZERO)).isEqualTo(cluster.warehouse().toString());
                assertThat(serve.awaitOutput(ORDERS_TIERED, READY_TIMEOUT)).isEqualTo(ORDERS.toString());

                POSTGRES.stop();
                long stopAsked = System.nanoTime();
                serve.process.destroy(); // SIGTERM
                int exitCode = serve.awaitExit(ServeCommand.STOP_BOUND.plus(STOP_BOUND_SLACK));
                assertThat(Duration.ofNanos(System.nanoTime() - stopAsked))
                        .isLessThan(ServeCommand.STOP_BOUND.plus(STOP_BOUND_SLACK));
                assertThat(exitCode).isIn(0, LakeSyncCli.STOP_TIMED_OUT);
                assertThat(serve.errors().lines()).hasSizeLessThanOrEqualTo(1);
                if (exitCode == LakeSyncCli.STOP_TIMED_OUT) {
                    assertThat(serve.errors()).startsWith("lakesync: not stopped within 30 s, still in ");
                }
                assertThat(StackTraces.in(serve.output() + serve.errors())).isEmpty();
            }
        }
    }

    @Test
    void flussFailingToStartEndsTheProcessWithOneLine() throws Exception {
        Path dataDir = tempDir.resolve("data");
        Files.createDirectories(dataDir);
        // The tablet server's folder is a file: it fails after ZooKeeper and the coordinator are up.
        Files.writeString(dataDir.resolve("tablet-server-0"), "not a folder");
        try (Child child = Child.start(tempDir, "local", "--data-dir", dataDir.toString(), "--port", "0",
                "--fluss-port", "0")) {
            assertThat(child.awaitExit(EXIT_TIMEOUT)).isEqualTo(LakeSyncCli.START_FAILED);
            assertThat(child.errors().lines()).hasSize(1);
            assertThat(child.errors())
                    .startsWith("lakesync: failed to start: ")
                    .contains(dataDir.resolve("tablet-server-0").toString());
            assertThat(child.output()).doesNotContain("is ready");
        }
    }

    @Test
    void busyFlussPortEndsTheProcessNamingTheKey() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            int port = taken.getLocalPort();
            try (Child child = Child.start(tempDir, "local", "--data-dir", tempDir.resolve("data").toString(),
                    "--port", "0", "--fluss-port", String.valueOf(port))) {
                assertThat(child.awaitExit(EXIT_TIMEOUT)).isEqualTo(LakeSyncCli.BAD_INPUT);
                assertThat(child.errors().lines()).hasSize(1);
                assertThat(child.errors()).contains("'local.coordinator.port'").contains("Port " + port + " ");
            }
        }
    }

    @Test
    void serveWithoutFlussAddressEndsTheProcessNamingTheKey() throws Exception {
        try (Child child = Child.start(tempDir, "serve", "--data-dir", tempDir.resolve("data").toString(),
                "--port", "0")) {
            assertThat(child.awaitExit(EXIT_TIMEOUT)).isEqualTo(LakeSyncCli.BAD_INPUT);
            assertThat(child.errors().lines()).hasSize(1);
            assertThat(child.errors()).startsWith("lakesync: Missing config key 'fluss.bootstrap.servers'");
        }
    }

    private static void assertHealthy(String serviceUrl) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(serviceUrl + "/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"status\":\"UP\"");
    }

    private static Connection connect(String bootstrapServers) {
        Configuration conf = new Configuration();
        conf.setString(ConfigOptions.BOOTSTRAP_SERVERS.key(), bootstrapServers);
        return ConnectionFactory.createConnection(conf);
    }

    private static void createLakeTable(String bootstrapServers) throws Exception {
        try (Connection connection = connect(bootstrapServers)) {
            Admin admin = connection.getAdmin();
            admin.createDatabase(ORDERS.getDatabaseName(), DatabaseDescriptor.EMPTY, true).get();
            TableDescriptor descriptor = TableDescriptor.builder()
                    .schema(Schema.newBuilder()
                            .column("order_id", DataTypes.BIGINT())
                            .column("amount", DataTypes.INT())
                            .primaryKey("order_id")
                            .build())
                    .distributedBy(1)
                    .property("table.datalake.enabled", "true")
                    .property("table.datalake.freshness", "1s") // tiered within seconds, not the default 3 min
                    .build();
            admin.createTable(ORDERS, descriptor, false).get();
        }
    }

    private static void writeOrders(String bootstrapServers) throws Exception {
        try (Connection connection = connect(bootstrapServers);
                Table orders = connection.getTable(ORDERS)) {
            UpsertWriter writer = orders.newUpsert().createWriter();
            for (long id = 1; id <= 3; id++) {
                writer.upsert(GenericRow.of(id, (int) id * 10));
            }
            writer.flush();
        }
    }
}
