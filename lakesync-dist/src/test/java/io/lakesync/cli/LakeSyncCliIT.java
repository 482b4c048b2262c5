package io.lakesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.regex.Pattern;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The packaged command line, run the way users run it ({@code ./lakesync} with what the build packaged) in a
 * child JVM: the local stack starts, serves {@code /health}, stops cleanly on SIGINT and SIGTERM, resumes on
 * the same data folder, and start-up failures end the process with one line on stderr. The tests run side by
 * side: each has its own folders and free ports.
 */
@Execution(ExecutionMode.CONCURRENT)
class LakeSyncCliIT {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern SERVICE_URL = Pattern.compile("Service URL\\s+(http://\\S+)");
    private static final Pattern BOOTSTRAP = Pattern.compile("Fluss bootstrap servers\\s+(\\S+)");
    private static final Pattern WAREHOUSE = Pattern.compile("Paimon warehouse\\s+(\\S+)");
    private static final TablePath ORDERS = TablePath.of("it", "orders");
    private static final int SIGINT = 2;

    @TempDir Path tempDir;

    @Test
    void localStackServesStopsCleanlyAndResumesOnTheSameDataFolder() throws Exception {
        Path dataDir = tempDir.resolve("data");
        try (Child first = Child.start(tempDir, "local", "--data-dir", dataDir.toString(), "--port", "0",
                "--fluss-port", "0")) {
            String serviceUrl = first.awaitOutput(SERVICE_URL, READY_TIMEOUT);
            assertHealthy(serviceUrl);
            assertThat(LocalServiceUrl.read(dataDir)).as("where client commands find the stack's free port")
                    .hasToString(serviceUrl);
            createLakeTable(first.awaitOutput(BOOTSTRAP, Duration.ZERO));
            assertThat(first.output()).contains("Paimon warehouse", dataDir.resolve("warehouse").toString());

            // Ctrl-C; a child of a shell that ignores SIGINT (a background job) inherits that, so SIGTERM then.
            first.signal(first.ignores(SIGINT) ? "TERM" : "INT");
            assertThat(first.awaitExit(EXIT_TIMEOUT)).isZero();
            assertThat(first.output()).contains("Stopped; data kept in " + dataDir);
            assertThat(first.errors()).isEmpty();
            assertThat(LocalServiceUrl.read(dataDir)).as("a stopped stack serves nowhere").isNull();
        }
        try (Child second = Child.start(tempDir, "local", "--data-dir", dataDir.toString(), "--port", "0",
                "--fluss-port", "0")) {
            assertHealthy(second.awaitOutput(SERVICE_URL, READY_TIMEOUT));
            try (Connection connection = connect(second.awaitOutput(BOOTSTRAP, Duration.ZERO))) {
                assertThat(connection.getAdmin().tableExists(ORDERS).get()).isTrue();
            }
            second.process.destroy(); // SIGTERM
            assertThat(second.awaitExit(EXIT_TIMEOUT)).isZero();
            assertThat(second.output()).contains("Stopped; data kept in " + dataDir);
        }
    }

    @Test
    void serveRunsAgainstAnExistingFlussCluster() throws Exception {
        try (Child cluster = Child.start(tempDir, "local", "--data-dir", tempDir.resolve("local").toString(),
                "--port", "0", "--fluss-port", "0")) {
            cluster.awaitOutput(SERVICE_URL, READY_TIMEOUT);
            String bootstrap = cluster.awaitOutput(BOOTSTRAP, Duration.ZERO);
            String warehouse = cluster.awaitOutput(WAREHOUSE, Duration.ZERO);
            Path config = tempDir.resolve("lakesync.yaml");
            Files.writeString(config, String.join("\n",
                    "fluss.bootstrap.servers: " + bootstrap,
                    "datalake.paimon:",
                    "  metastore: filesystem",
                    "  warehouse: " + warehouse,
                    ""));
            try (Child serve = Child.start(tempDir, "serve", "--config", config.toString(),
                    "--data-dir", tempDir.resolve("serve").toString(), "--port", "0")) {
                String serviceUrl = serve.awaitOutput(SERVICE_URL, READY_TIMEOUT);
                assertHealthy(serviceUrl);
                assertThat(serve.output()).contains("Fluss bootstrap servers  " + bootstrap);
                serve.process.destroy();
                assertThat(serve.awaitExit(EXIT_TIMEOUT)).isZero();
                assertThat(serve.errors()).isEmpty();
            }
            cluster.process.destroy();
            assertThat(cluster.awaitExit(EXIT_TIMEOUT)).isZero();
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
                    .build();
            admin.createTable(ORDERS, descriptor, false).get();
        }
    }
}
