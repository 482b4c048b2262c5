package io.lakesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.local.ClusterTest;
import io.lakesync.local.LocalFlussCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged {@code lakesync serve} with every secret in a file ({@code KEY=@FILE} in the YAML and on the
 * command line): the process's command line, output and log hold none of them, yet the token read from its file
 * opens the API; a missing secret file or a placeholder token ends the process with one line naming the key.
 */
@ClusterTest
class SecretFilesIT {

    private static final Pattern SERVICE_URL = Pattern.compile("Service URL\\s+(http://\\S+)");
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final String TOKEN = "viewer-token-read-from-a-file-0123";
    private static final Map<String, String> SECRETS = Map.of(
            "auth-tokens", "grafana:viewer:" + TOKEN,
            "state-password", "state-password-value-4711",
            "jdbc-password", "paimon-jdbc-password-value-4711",
            "s3-access-key", "s3-access-key-value-4711",
            "s3-secret-key", "s3-secret-key-value-4711",
            "sasl-password", "sasl-password-value-4711");

    @TempDir Path dir;

    @Test
    void serveReadsItsSecretsFromFilesAndShowsThemNowhere() throws Exception {
        Path secrets = Files.createDirectories(dir.resolve("secrets"));
        for (Map.Entry<String, String> secret : SECRETS.entrySet()) {
            Files.writeString(secrets.resolve(secret.getKey()), secret.getValue() + "\n");
        }
        LakeSyncConfig clusterConfig = LakeSyncConfig.fromMap(
                Map.of("data.dir", dir.resolve("cluster").toString(), "local.coordinator.port", "0"), "test");
        try (LocalFlussCluster cluster = LocalFlussCluster.start(clusterConfig, Map.of())) {
            Path config = Files.writeString(dir.resolve("lakesync.yaml"), String.join("\n",
                    "fluss.bootstrap.servers: " + cluster.bootstrapServers(),
                    "fluss.client.security.sasl.password: '@" + secrets.resolve("sasl-password") + "'",
                    "datalake.paimon:",
                    "  metastore: filesystem",
                    "  warehouse: " + cluster.warehouse(),
                    "  jdbc.password: '@" + secrets.resolve("jdbc-password") + "'",
                    "  s3.access-key: '@" + secrets.resolve("s3-access-key") + "'",
                    "  s3.secret-key: '@" + secrets.resolve("s3-secret-key") + "'",
                    "auth.tokens: '@" + secrets.resolve("auth-tokens") + "'",
                    "tiering.warm-up: false",
                    ""));
            Path dataDir = dir.resolve("serve");
            String statePassword = "state.jdbc-password=@" + secrets.resolve("state-password");
            try (Child serve = Child.start(dir, "serve", "--config", config.toString(), "--data-dir",
                    dataDir.toString(), "--port", "0", "--set", statePassword)) {
                URI url = URI.create(serve.awaitOutput(SERVICE_URL, TIMEOUT));

                String commandLine = serve.commandLine();
                assertThat(commandLine).contains("lakesync-dist.jar serve", statePassword);
                assertThat(SECRETS.values()).allSatisfy(secret -> assertThat(commandLine).doesNotContain(secret));

                assertThat(get(url, "/health", null).body()).isEqualTo("{\"status\":\"UP\"}");
                assertThat(get(url, "/health", TOKEN).body()).as("the token read from its file opens the details")
                        .contains("\"flussBootstrapServers\":\"" + cluster.bootstrapServers() + "\"");
                assertThat(get(url, "/metrics", null).statusCode()).isEqualTo(401);
                assertThat(get(url, "/metrics", TOKEN).statusCode()).isEqualTo(200);

                serve.process.destroy();
                assertThat(serve.awaitExit(TIMEOUT)).isZero();
                String printed = serve.output() + serve.errors()
                        + Files.readString(dataDir.resolve("logs").resolve("lakesync.log"));
                assertThat(printed).contains("is ready");
                assertThat(SECRETS.values()).allSatisfy(secret -> assertThat(printed).doesNotContain(secret));
            }
        }
    }

    @Test
    void aMissingSecretFileOrAPlaceholderTokenEndsTheProcessWithOneLine() throws Exception {
        Path missing = dir.resolve("secrets").resolve("auth-tokens");
        Path placeholder = Files.writeString(dir.resolve("placeholder-tokens"),
                "ops:owner:change-me-to-a-long-random-token");
        Map<Path, String> expected = Map.of(
                missing, "lakesync: Cannot read config key 'auth.tokens' from file " + missing,
                placeholder, "lakesync: Entry 1 of config key 'auth.tokens' (token 'ops') still holds a placeholder");
        for (Map.Entry<Path, String> tokens : expected.entrySet()) {
            try (Child serve = Child.start(dir, "serve", "--data-dir", dir.resolve("data").toString(),
                    "--port", "0", "--set", "fluss.bootstrap.servers=127.0.0.1:1",
                    "--set", "auth.tokens=@" + tokens.getKey())) {
                assertThat(serve.awaitExit(TIMEOUT)).isEqualTo(LakeSyncCli.BAD_INPUT);
                assertThat(serve.errors().lines()).hasSize(1);
                assertThat(serve.errors()).startsWith(tokens.getValue()).doesNotContain("change-me-to");
            }
        }
    }

    private static HttpResponse<String> get(URI url, String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(url.resolve(path));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
