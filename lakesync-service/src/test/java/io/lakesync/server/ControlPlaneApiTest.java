package io.lakesync.server;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakesync.alert.WebhookReceiver;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.state.PostgresServer;
import io.lakesync.tiering.TieringTestBase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole control plane over real HTTP on the real stack, once with its state in SQLite and once in
 * PostgreSQL: table status, metrics, an alert that fires to a real webhook and resolves, the switches, and
 * the token checks.
 */
class ControlPlaneApiTest extends TieringTestBase {

    private static final String OWNER = "owner-token-0123456789";
    private static final String OPERATOR = "operator-token-0123456789";
    private static final String VIEWER = "viewer-token-0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static PostgresServer postgres = new PostgresServer();

    private final HttpClient http = HttpClient.newHttpClient();
    private URI base;

    @ParameterizedTest(name = "state in {0}")
    @ValueSource(strings = {"sqlite", "postgresql"})
    void tablesMetricsAlertsSwitchesAndTokensWorkEndToEnd(String stateStore) throws Exception {
        TablePath path = TablePath.of("fluss", "api_orders_" + stateStore);
        Map<String, String> settings = new HashMap<>();
        settings.put("service.port", "0");
        settings.put("auth.tokens", "alice:owner:" + OWNER + ",bob:operator:" + OPERATOR + ",grafana:viewer:" + VIEWER);
        settings.put("status.refresh-interval", "300ms");
        settings.put("alert.evaluation-interval", "300ms");
        if (stateStore.equals("postgresql")) {
            settings.put("state.jdbc-url", postgres.newDatabase());
            settings.put("state.jdbc-user", PostgresServer.SUPERUSER);
            settings.put("state.jdbc-password", PostgresServer.PASSWORD);
        }
        LakeSyncConfig config = serviceConfig("api-" + stateStore, settings);
        // A freshness of an hour keeps the table's data pending until the test shortens it.
        createTable(path, TableDescriptor.builder()
                .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
                .distributedBy(2, "id")
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "1h")
                .build());
        append(path, ids(0, 300));

        try (LakeSyncServer server = LakeSyncServer.start(config);
                WebhookReceiver webhook = new WebhookReceiver()) {
            base = server.url();

            assertThat(call("GET", "/api/v1/tables", null, null).statusCode()).isEqualTo(401);
            assertThat(call("GET", "/health", null, null).statusCode()).isEqualTo(200);
            assertThat(call("POST", "/api/v1/tables/fluss/" + path.getTableName() + "/disable", VIEWER, null).statusCode()).isEqualTo(403);
            HttpResponse<String> ownerOnly = call("POST", "/api/v1/service/disable", OPERATOR, null);
            assertThat(ownerOnly.statusCode()).isEqualTo(403);
            assertThat(ownerOnly.body()).contains("owner");

            String table = "/api/v1/tables/fluss/" + path.getTableName();
            eventually(Duration.ofSeconds(30), () -> {
                JsonNode status = json(call("GET", table, VIEWER, null));
                assertThat(status.get("pendingRecords").asLong()).isEqualTo(300);
                assertThat(status.get("state").asText()).isEqualTo("INITIALIZING");
                assertThat(status.get("syncLatencyMs").asLong()).isPositive();
            });

            put("/api/v1/alerts/channels/ops-hook", OWNER, Map.of("type", "webhook", "url", webhook.url().toString()));
            put("/api/v1/alerts/rules/backlog", OPERATOR, Map.of(
                    "metric", "pendingRecords", "comparison", ">", "threshold", "100", "for", "0s",
                    "tables", "fluss.api_orders_*", "severity", "critical", "channels", List.of("ops-hook")));
            HttpResponse<String> badRule = call("PUT", "/api/v1/alerts/rules/broken", OPERATOR,
                    JSON.writeValueAsString(Map.of("metric", "nope", "comparison", ">", "threshold", "1")));
            assertThat(badRule.statusCode()).isEqualTo(400);
            assertThat(badRule.body()).contains("metric");

            WebhookReceiver.Received firing = webhook.next(Duration.ofSeconds(30));
            assertThat(firing).isNotNull();
            assertThat(firing.body().toString()).contains("FIRING").contains(path.toString());

            HttpResponse<String> refused = call("POST", "/api/v1/service/disable", OWNER, null);
            assertThat(refused.statusCode()).isEqualTo(409);
            assertThat(refused.body()).contains(path.toString());

            admin.alterTable(path, List.of(TableChange.set("table.datalake.freshness", "1s")), false).get();
            awaitTiered(path);
            WebhookReceiver.Received resolved = webhook.next(Duration.ofSeconds(30));
            assertThat(resolved).isNotNull();
            assertThat(resolved.body().toString()).contains("RESOLVED");

            eventually(Duration.ofSeconds(30), () -> {
                JsonNode status = json(call("GET", table, VIEWER, null));
                assertThat(status.get("state").asText()).isEqualTo("UP_TO_DATE");
                assertThat(status.get("pendingRecords").asLong()).isZero();
                assertThat(status.get("syncLatencyMs").asLong()).isZero();
                assertThat(status.get("lakeSnapshotId").asLong()).isPositive();
                assertThat(status.get("history").size()).isPositive();
            });
            String metrics = call("GET", "/metrics", VIEWER, null).body();
            assertThat(metrics).contains("lakesync_table_pendingRecords{database=\"fluss\",table=\"" + path.getTableName() + "\"} 0");
            assertThat(json(call("GET", "/api/v1/alerts/events?rule=backlog", VIEWER, null)).size()).isEqualTo(2);
            assertThat(webhook.drain()).as("each event delivered once").isEmpty();

            HttpResponse<String> openApi = call("GET", "/api/v1/openapi.yaml", null, null);
            assertThat(openApi.statusCode()).isEqualTo(200);
            Map<String, Object> documented = new org.yaml.snakeyaml.Yaml().load(openApi.body());
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> paths = (Map<String, Map<String, Object>>) documented.get("paths");
            for (Map.Entry<String, Map<String, Object>> documentedPath : paths.entrySet()) {
                String concrete = documentedPath.getKey().replace("{db}", "fluss").replace("{table}", path.getTableName()).replace("{name}", "backlog");
                if (documentedPath.getValue().containsKey("get")) {
                    assertThat(call("GET", concrete, VIEWER, null).statusCode()).as("GET %s", concrete).isEqualTo(200);
                }
            }
        }
    }

    private void put(String path, String token, Map<String, Object> body) throws Exception {
        HttpResponse<String> response = call("PUT", path, token, JSON.writeValueAsString(body));
        assertThat(response.statusCode()).as(response.body()).isIn(200, 201);
    }

    private HttpResponse<String> call(String method, String path, String token, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
