package io.lakesync.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakesync.auth.Authenticator;
import io.lakesync.auth.JavalinAuth;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.metrics.MetricsRoutes;
import io.lakesync.metrics.TableMetricsCollector;
import io.lakesync.testing.ManualClock;
import io.lakesync.tiering.EngineHealth;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * How {@code /health} combines the engine's health and the status problems, and what it shows to whom over real
 * HTTP (with a Fluss cluster: LakeSyncServerTest, FlussRestartTest); who may scrape {@code /metrics}.
 */
class HealthRoutesTest {

    private static final String VIEWER = "viewer-token-0123456789";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T19:00:00Z"));
    private final List<String> problems = new ArrayList<>();
    private final AtomicReference<Optional<EngineHealth>> engine = new AtomicReference<>(Optional.empty());
    private final HealthRoutes routes = healthRoutes(Map.of());

    private HealthRoutes healthRoutes(Map<String, String> settings) {
        return new HealthRoutes("fluss:9123", clock, () -> List.copyOf(problems), engine::get,
                Authenticator.fromConfig(config(settings)));
    }

    private static LakeSyncConfig config(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(settings);
        all.put("service.port", "0");
        all.put("auth.tokens", "grafana:viewer:" + VIEWER);
        return LakeSyncConfig.fromMap(all, "test");
    }

    /** /health and /metrics on real HTTP, guarded as the service guards them. */
    private HttpApi serve(Map<String, String> settings) {
        LakeSyncConfig config = config(settings);
        return HttpApi.start(config, List.of(
                app -> app.router.mount(router -> router.beforeMatched(
                        new JavalinAuth(Authenticator.fromConfig(config)))),
                healthRoutes(settings),
                new MetricsRoutes(new TableMetricsCollector(List::of, clock),
                        config.get(LakeSyncOptions.METRICS_REQUIRE_TOKEN))));
    }

    private static HttpResponse<String> get(HttpApi api, String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(api.url().resolve(path));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void withoutATokenHealthSaysOnlyTheStatusWithTheSameHttpStatus() throws Exception {
        problems.add("Cannot reach Fluss since 2026-11-30T19:09:46Z: Connection refused");
        try (HttpApi api = serve(Map.of())) {
            for (String token : new String[] {null, "wrong-token-0123456789"}) {
                HttpResponse<String> degraded = get(api, "/health", token);
                assertThat(degraded.statusCode()).isEqualTo(200);
                assertThat(degraded.body()).isEqualTo("{\"status\":\"DEGRADED\"}");
            }
            engine.set(Optional.of(new EngineHealth(false, "No heartbeat reached the coordinator for 2 min.", null)));
            HttpResponse<String> down = get(api, "/health", null);
            assertThat(down.statusCode()).as("probes rely on 503 for DOWN").isEqualTo(503);
            assertThat(down.body()).isEqualTo("{\"status\":\"DOWN\"}");

            HttpResponse<String> detailed = get(api, "/health", VIEWER);
            assertThat(detailed.statusCode()).isEqualTo(503);
            JsonNode health = JSON.readTree(detailed.body());
            assertThat(health.get("status").asText()).isEqualTo("DOWN");
            assertThat(health.get("flussBootstrapServers").asText()).isEqualTo("fluss:9123");
            assertThat(health.get("reasons").toString()).contains("No heartbeat", "Cannot reach Fluss");
            assertThat(health.get("version").asText()).isNotEmpty();
        }
    }

    @Test
    void anonymousReadShowsTheDetailsWithoutAToken() throws Exception {
        try (HttpApi api = serve(Map.of("auth.anonymous-read", "true"))) {
            JsonNode health = JSON.readTree(get(api, "/health", null).body());
            assertThat(health.get("status").asText()).isEqualTo("UP");
            assertThat(health.get("flussBootstrapServers").asText()).isEqualTo("fluss:9123");
        }
    }

    @Test
    void metricsNeedAViewerTokenUnlessOpenedForScrapers() throws Exception {
        try (HttpApi api = serve(Map.of())) {
            assertThat(get(api, "/metrics", null).statusCode()).isEqualTo(401);
            assertThat(get(api, "/metrics", VIEWER).statusCode()).isEqualTo(200);
        }
        try (HttpApi api = serve(Map.of("metrics.require-token", "false"))) {
            assertThat(get(api, "/metrics", null).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void upWhileEverythingIsObservedWithTheEngineOffOrHealthy() {
        assertThat(routes.health().status()).isEqualTo("UP");
        engine.set(Optional.of(new EngineHealth(true, null, clock.instant())));
        clock.advance(Duration.ofSeconds(90));
        HealthRoutes.Health health = routes.health();
        assertThat(health.status()).isEqualTo("UP");
        assertThat(health.reasons()).isEmpty();
        assertThat(health.uptimeSeconds()).isEqualTo(90);
    }

    @Test
    void degradedWithTheReasonsWhileFlussOrTheLakeDoesNotAnswer() {
        engine.set(Optional.of(new EngineHealth(true, null, clock.instant())));
        problems.add("Cannot reach Fluss since 2026-11-30T19:09:46Z: Connection refused");
        problems.add("2 table(s) UNKNOWN: fluss.a, fluss.b");
        HealthRoutes.Health health = routes.health();
        assertThat(health.status()).isEqualTo("DEGRADED");
        assertThat(health.reasons()).containsExactlyElementsOf(problems);
    }

    @Test
    void downWhenTheEngineSaysItIsUnhealthy() {
        engine.set(Optional.of(new EngineHealth(false, "No heartbeat reached the coordinator for 2 min.", null)));
        problems.add("Cannot reach Fluss since 2026-11-30T19:09:46Z: Connection refused");
        HealthRoutes.Health health = routes.health();
        assertThat(health.status()).isEqualTo("DOWN");
        assertThat(health.reasons()).containsExactly(
                "Tiering engine: No heartbeat reached the coordinator for 2 min.",
                "Cannot reach Fluss since 2026-11-30T19:09:46Z: Connection refused");
    }
}
