package io.lakesync.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.local.ClusterTest;
import io.lakesync.local.LocalFlussCluster;
import io.lakesync.testing.ManualClock;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The service against a real local Fluss stack, over real HTTP. */
@ClusterTest
class LakeSyncServerTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir static Path dataDir;
    private static LocalFlussCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = LocalFlussCluster.start(config(Map.of("local.coordinator.port", "0")), Map.of());
    }

    @AfterAll
    static void stopCluster() throws Exception {
        cluster.close();
    }

    private static LakeSyncConfig config(Map<String, String> extra) {
        Map<String, String> map = new HashMap<>();
        map.put("data.dir", dataDir.toString());
        map.put("service.port", "0");
        map.putAll(extra);
        return LakeSyncConfig.fromMap(map, "test");
    }

    private static LakeSyncConfig serviceConfig(Map<String, String> extra) {
        return cluster.serviceConfig(config(extra));
    }

    @Test
    void healthReportsVersionClusterAndUptimeToAReader() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        String token = "viewer-token-0123456789";
        try (LakeSyncServer server =
                LakeSyncServer.start(serviceConfig(Map.of("auth.tokens", "grafana:viewer:" + token)), clock)) {
            assertThat(server.port()).isPositive();
            assertThat(server.url()).hasToString("http://127.0.0.1:" + server.port());

            assertThat(get(server.url().resolve("/health")).body()).isEqualTo("{\"status\":\"UP\"}");
            HttpResponse<String> response = get(server.url().resolve("/health"), token);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/json"));
            JsonNode health = JSON.readTree(response.body());
            assertThat(health.get("status").asText()).isEqualTo("UP");
            assertThat(health.get("version").asText()).matches("\\d+\\.\\d+\\.\\d+.*");
            assertThat(health.get("flussBootstrapServers").asText()).isEqualTo(cluster.bootstrapServers());
            assertThat(health.get("startedAt").asText()).isEqualTo("2026-01-01T00:00:00Z");
            assertThat(health.get("uptimeSeconds").asLong()).isZero();

            clock.advance(Duration.ofSeconds(90));
            JsonNode later = JSON.readTree(get(server.url().resolve("/health"), token).body());
            assertThat(later.get("uptimeSeconds").asLong()).isEqualTo(90);
        }
    }

    @Test
    void closeStopsListening() throws Exception {
        URI health;
        try (LakeSyncServer server = LakeSyncServer.start(serviceConfig(Map.of()))) {
            health = server.url().resolve("/health");
            assertThat(get(health).statusCode()).isEqualTo(200);
        }
        assertThatThrownBy(() -> get(health)).isInstanceOf(ConnectException.class);
    }

    @Test
    void busyServicePortFailsNamingTheKeyAndPort() throws Exception {
        try (ServerSocket taken = takePort()) {
            int port = taken.getLocalPort();
            assertThatThrownBy(
                            () -> LakeSyncServer.start(serviceConfig(Map.of("service.port", String.valueOf(port)))))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("'service.port'")
                    .hasMessageContaining("Port " + port + " ");
        }
    }

    @Test
    void portTakenAtBindTimeFailsNamingTheKey() throws Exception {
        try (ServerSocket taken = takePort()) {
            int port = taken.getLocalPort();
            assertThatThrownBy(
                            () -> HttpApi.start(serviceConfig(Map.of("service.port", String.valueOf(port))), List.of()))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("'service.port'")
                    .hasMessageContaining("Port " + port + " ");
        }
    }

    @Test
    void hostThatIsNotThisMachinesFailsNamingTheKey() {
        // 192.0.2.0/24 is reserved for documentation: never an address of this machine, and binding sends nothing.
        assertThatThrownBy(() -> LakeSyncServer.start(serviceConfig(Map.of("service.host", "192.0.2.1"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'service.host'")
                .hasMessageContaining("'192.0.2.1'");
    }

    @Test
    void missingBootstrapServersIsAConfigErrorNamingTheKey() {
        assertThatThrownBy(() -> LakeSyncServer.start(config(Map.of())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'fluss.bootstrap.servers'");
    }

    @Test
    void routesOfOtherCapabilitiesAreServedWithTimesAsIsoStrings() throws Exception {
        record Sample(Instant at, Duration lag) {}
        HttpRoutes sample =
                config -> config.router.mount(router -> router.get(
                        "/sample",
                        ctx -> ctx.json(new Sample(Instant.parse("2026-01-01T00:00:00Z"), Duration.ofSeconds(5)))));
        try (HttpApi api = HttpApi.start(serviceConfig(Map.of()), List.of(sample))) {
            HttpResponse<String> response = get(api.url().resolve("/sample"));
            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode body = JSON.readTree(response.body());
            assertThat(body.get("at").asText()).isEqualTo("2026-01-01T00:00:00Z");
            assertThat(body.get("lag").asText()).isEqualTo("PT5S");
            assertThat(get(api.url().resolve("/health")).statusCode()).isEqualTo(404);
        }
    }

    private static ServerSocket takePort() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
        return socket;
    }

    private static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(URI uri, String token) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + token).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
