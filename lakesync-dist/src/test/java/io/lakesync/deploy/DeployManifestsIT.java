package io.lakesync.deploy;

import static io.lakesync.deploy.DeployManifests.configFile;
import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakesync.cli.Child;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.local.S3Server;
import io.lakesync.state.PostgresServer;
import io.lakesync.tiering.TieringTestBase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The shipped manifests served for real: three {@code lakesync serve} processes (the Deployment's replicas) run
 * with exactly the ConfigMap's lakesync.yaml, only its host names replaced by this test's Fluss cluster, PostgreSQL
 * and S3 server (the data folder and port are given per instance, as a pod's emptyDir and address are its own; no
 * warm-up, which only makes the first rounds faster), and the Secret's keys as files. A log table and a
 * primary-key table written while they run land in the Paimon tables (JDBC catalog in PostgreSQL, data on S3)
 * every row exactly once, and no instance's command line, output or log shows a secret.
 */
class DeployManifestsIT extends TieringTestBase {

    private static final TablePath EVENTS = TablePath.of("fluss", "k8s_events");
    private static final TablePath ORDERS = TablePath.of("fluss", "k8s_orders");
    private static final Pattern SERVICE_URL = Pattern.compile("Service URL\\s+(http://\\S+)");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String OWNER = randomToken();

    @RegisterExtension
    static PostgresServer postgres = new PostgresServer();

    private static S3Server s3;
    private static Map<String, String> secrets;
    private static Map<String, String> hosts;

    /** Hides the filesystem cluster of {@link TieringTestBase}: the Fluss servers get the ConfigMap's lake. */
    @BeforeAll
    public static void startCluster() throws Exception {
        Path dir = Files.createTempDirectory("lakesync-deploy-lake");
        s3 = S3Server.start(dir.resolve("s3"), 0);
        s3.createBucket("lake");
        try (Connection connection = DriverManager.getConnection(
                        postgres.jdbcUrl("postgres"), PostgresServer.SUPERUSER, PostgresServer.PASSWORD);
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE lakesync");
            statement.execute("CREATE DATABASE paimon");
        }
        secrets = Map.of(
                "auth-tokens", "ops:owner:" + OWNER + ",prometheus:viewer:" + randomToken(),
                "state-password", PostgresServer.PASSWORD,
                "s3-access-key", s3.accessKey(),
                "s3-secret-key", s3.secretKey());
        hosts = new HashMap<>(Map.of(
                "lakesync-postgres:5432", "127.0.0.1:" + postgres.port(),
                "http://lake-storage:9000", s3.endpoint()));
        // The Fluss servers need the same datalake.paimon.* (their coordinator creates the lake tables).
        Map<String, String> lake = new HashMap<>();
        LakeSyncConfig.load(configFile(dir, secrets, hosts), Map.of()).lakeCatalogOptions()
                .forEach((key, value) -> lake.put(LakeSyncOptions.LAKE_PREFIX + key, value));
        startCluster(lake);
        hosts.put("fluss-coordinator-0.fluss:9123,fluss-coordinator-1.fluss:9123", cluster.bootstrapServers());
    }

    @AfterAll
    static void stopS3() throws Exception {
        s3.close();
    }

    @Test
    void threeInstancesServeTheManifestsConfigAndTierEveryRowOnce() throws Exception {
        Path config = configFile(root.resolve("pods"), secrets, hosts);
        List<Child> instances = new ArrayList<>();
        try {
            for (int pod = 0; pod < 3; pod++) {
                instances.add(Child.start(root, "serve", "--config", config.toString(),
                        "--set", "cluster.instance-id=lakesync-" + pod,
                        "--data-dir", root.resolve("pod-" + pod).toString(), "--port", "0",
                        // Only shortens the first rounds; three warm-ups at once on two cores took most of a minute.
                        "--set", "tiering.warm-up=false"));
            }
            List<URI> urls = new ArrayList<>();
            for (Child instance : instances) {
                urls.add(URI.create(instance.awaitOutput(SERVICE_URL, START_TIMEOUT)));
                String commandLine = instance.commandLine();
                assertThat(commandLine).contains("lakesync-dist.jar serve --config " + config);
                assertThat(secrets.values()).allSatisfy(secret -> assertThat(commandLine).doesNotContain(secret));
            }
            HttpResponse<String> enabled = call("POST", urls.get(0), "/api/v1/service/enable");
            assertThat(enabled.statusCode()).as(enabled.body()).isEqualTo(200);

            createTable(EVENTS, idTable(2, "1s"));
            createTable(ORDERS, ordersTable(2, "1s").build());
            Map<Long, String> orders = new TreeMap<>();
            for (int batch = 0; batch < 5; batch++) {
                append(EVENTS, ids(batch * 400L, (batch + 1) * 400L));
                upsertStatus(ORDERS, batch * 40L, batch * 40L + 80, "v" + batch, orders);
            }
            deleteKeys(ORDERS, 0, 20, orders);

            eventually(SYNC_TIMEOUT, () -> {
                List<Object> ids = readLake(EVENTS, "id").stream().map(row -> row.get(0)).toList();
                assertThat(ids).as("every log row exactly once").hasSize(2_000).doesNotHaveDuplicates()
                        .allSatisfy(id -> assertThat((Long) id).isBetween(0L, 1_999L));
                assertThat(readLakeByKey(ORDERS, "order_id", "status")).as("every key at its last version")
                        .isEqualTo(orders);
            });
            JsonNode members = JSON.readTree(call("GET", urls.get(2), "/api/v1/instances").body());
            assertThat(members.get("instances").findValuesAsText("id"))
                    .containsExactlyInAnyOrder("lakesync-0", "lakesync-1", "lakesync-2");
            for (int pod = 0; pod < 3; pod++) {
                String printed = instances.get(pod).output() + instances.get(pod).errors()
                        + Files.readString(root.resolve("pod-" + pod).resolve("logs").resolve("lakesync.log"));
                assertThat(secrets.values()).allSatisfy(secret -> assertThat(printed).doesNotContain(secret));
            }
        } finally {
            for (Child instance : instances) {
                instance.close();
            }
        }
    }

    private static HttpResponse<String> call(String method, URI url, String path) throws Exception {
        return HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(url.resolve(path)).header("Authorization", "Bearer " + OWNER)
                        .method(method, HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String randomToken() {
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }
}
