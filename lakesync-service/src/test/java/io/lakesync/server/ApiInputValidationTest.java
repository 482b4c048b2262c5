package io.lakesync.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.local.ClusterTest;
import io.lakesync.metrics.TableMetric;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The HTTP API's input handling over real HTTP, on a real service whose Fluss cluster does not answer: every
 * input is checked before anything is asked of Fluss, so no cluster is needed. Every route the server registers
 * must be documented in openapi.yaml, and every documented input (path and query parameters, JSON body fields)
 * is sent malformed and must be refused with 400 naming it, so a new route or parameter is covered by
 * documenting it.
 */
@ClusterTest
class ApiInputValidationTest {

    private static final String OWNER = "owner-token-0123456789";
    private static final String OPERATOR = "operator-token-0123456789";
    private static final String VIEWER = "viewer-token-0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PATH_PARAMETER = Pattern.compile("\\{(\\w+)}");
    private static final String INVALID_NAME = "bad name!";

    @TempDir static Path dataDir;
    private static LakeSyncServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void startServiceWithoutFluss() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Map<String, String> settings = new HashMap<>();
        settings.put("data.dir", dataDir.toString());
        settings.put("service.port", "0");
        settings.put("fluss.bootstrap.servers", "127.0.0.1:" + closedPort);
        settings.put("datalake.paimon.metastore", "filesystem");
        settings.put("datalake.paimon.warehouse", dataDir.resolve("warehouse").toString());
        settings.put("status.call-timeout", "1s");
        settings.put("auth.tokens", "alice:owner:" + OWNER + ",bob:operator:" + OPERATOR + ",grafana:viewer:" + VIEWER);
        settings.put("metrics.require-token", "true");
        server = LakeSyncServer.start(LakeSyncConfig.fromMap(settings, "test"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void everyRouteOfTheApiIsDocumented() throws Exception {
        Set<String> documented = new TreeSet<>();
        documentedPaths().forEach((path, operations) -> operations.keySet().stream()
                .filter(key -> !key.equals("parameters"))
                .forEach(method -> documented.add(method.toUpperCase(Locale.ROOT) + " " + path)));
        List<String> served = server.routes().stream()
                .filter(route -> route.contains(" /api/") || route.endsWith(" /metrics") || route.endsWith(" /health"))
                .toList();

        assertThat(served).hasSizeGreaterThan(15);
        assertThat(documented).containsAll(served);
    }

    @Test
    void everyDocumentedInputIsRefusedWith400NamingItWhenMalformed() throws Exception {
        List<String> exercised = new ArrayList<>();
        for (Map.Entry<String, Map<String, Object>> path : documentedPaths().entrySet()) {
            for (Map.Entry<String, Object> operation : path.getValue().entrySet()) {
                if (operation.getKey().equals("parameters")) {
                    continue;
                }
                String method = operation.getKey().toUpperCase(Locale.ROOT);
                Map<String, Object> spec = map(operation.getValue());
                List<Map<String, Object>> parameters = new ArrayList<>();
                list(path.getValue().get("parameters")).forEach(p -> parameters.add(map(p)));
                list(spec.get("parameters")).forEach(p -> parameters.add(map(p)));

                Matcher pathParameters = PATH_PARAMETER.matcher(path.getKey());
                while (pathParameters.find()) {
                    String parameter = pathParameters.group(1);
                    String uri = concrete(path.getKey(), parameter);
                    expectRefusal(method, uri, null, parameter);
                    exercised.add(method + " " + uri);
                }
                for (Map<String, Object> parameter : parameters) {
                    String badValue = badQueryValue(map(parameter.get("schema")));
                    if ("query".equals(parameter.get("in")) && badValue != null) {
                        String name = (String) parameter.get("name");
                        String uri = concrete(path.getKey(), null) + "?" + name + "=" + badValue;
                        expectRefusal(method, uri, null, name);
                        exercised.add(method + " " + uri);
                    }
                }
                if (spec.containsKey("requestBody")) {
                    String uri = concrete(path.getKey(), null);
                    expectRefusal(method, uri, "{\"metric\": ", "body");
                    expectRefusal(method, uri, "", "body");
                    expectRefusal(method, uri, "[1, 2]", "body");
                    expectRefusal(method, uri, "{\"noSuchField\": 1}", "noSuchField");
                    for (Map.Entry<String, Object> property : bodyProperties(spec).entrySet()) {
                        String wrongType = wrongTypedJson(map(property.getValue()));
                        expectRefusal(method, uri, "{\"" + property.getKey() + "\": " + wrongType + "}", property.getKey());
                        exercised.add(method + " " + uri + " " + property.getKey() + "=" + wrongType);
                    }
                }
            }
        }
        assertThat(exercised).as("malformed inputs sent").hasSizeGreaterThan(25)
                .anyMatch(call -> call.contains("limit="))
                .anyMatch(call -> call.contains("keepOldKeys="))
                .anyMatch(call -> call.contains(" threshold="))
                .anyMatch(call -> call.startsWith("DELETE /api/v1/lake/retained/"));
    }

    @Test
    void webhookChannelsAreAnOwnersAndTheirUrlsAreShownToOwnersOnly() throws Exception {
        String secretUrl = "https://hooks.example.com/services/T000/B000/secret-part";
        HttpResponse<String> byOperator = call("PUT", "/api/v1/alerts/channels/pager", OPERATOR,
                JSON.writeValueAsString(Map.of("type", "webhook", "url", secretUrl)));
        assertThat(byOperator.statusCode()).isEqualTo(403);
        assertThat(byOperator.body()).contains("only an owner").contains("'pager'").contains("operator");

        assertThat(call("PUT", "/api/v1/alerts/channels/pager", OWNER,
                JSON.writeValueAsString(Map.of("type", "webhook", "url", secretUrl))).statusCode()).isEqualTo(201);
        assertThat(call("PUT", "/api/v1/alerts/channels/quiet", OPERATOR,
                JSON.writeValueAsString(Map.of("type", "log"))).statusCode()).as("log channels stay an operator's").isEqualTo(201);
        HttpResponse<String> replacing = call("PUT", "/api/v1/alerts/channels/pager", OPERATOR,
                JSON.writeValueAsString(Map.of("type", "log")));
        assertThat(replacing.statusCode()).as("turning an owner's webhook into a log channel").isEqualTo(403);

        for (String token : List.of(VIEWER, OPERATOR)) {
            JsonNode pager = channel(token, "pager");
            assertThat(pager.get("url").asText()).isEqualTo("https://***");
            assertThat(pager.get("urlRedacted").asBoolean()).isTrue();
            assertThat(call("GET", "/api/v1/alerts/channels", token, null).body()).doesNotContain("secret-part");
        }
        JsonNode seenByOwner = channel(OWNER, "pager");
        assertThat(seenByOwner.get("url").asText()).isEqualTo(secretUrl);
        assertThat(seenByOwner.get("urlRedacted").asBoolean()).isFalse();
        assertThat(channel(VIEWER, "quiet").get("url").isNull()).isTrue();
    }

    @Test
    void metricsNeedATokenWhenConfiguredAndTheCatalogueDescribesEachMetricOnce() throws Exception {
        HttpResponse<String> anonymous = call("GET", "/metrics", null, null);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.body()).contains("Authorization: Bearer");
        HttpResponse<String> scraped = call("GET", "/metrics", VIEWER, null);
        assertThat(scraped.statusCode()).isEqualTo(200);
        assertThat(scraped.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));

        JsonNode catalogue = JSON.readTree(call("GET", "/api/v1/metrics/catalogue", VIEWER, null).body());
        Map<String, JsonNode> byId = new LinkedHashMap<>();
        catalogue.forEach(metric -> byId.put(metric.get("id").asText(), metric));
        assertThat(byId.keySet()).containsExactly(Arrays.stream(TableMetric.values()).map(TableMetric::id).toArray(String[]::new));
        assertThat(byId.get("syncLatencyMs").get("prometheusName").asText()).isEqualTo("lakesync_table_tierLag");
        assertThat(byId.get("syncLatencyMs").get("unit").asText()).isEqualTo("milliseconds");
        assertThat(byId.get("failuresTotal").get("counter").asBoolean()).isTrue();

        HttpResponse<String> byPrometheusName = call("PUT", "/api/v1/alerts/rules/lag", OPERATOR, JSON.writeValueAsString(
                Map.of("metric", "tierLag", "comparison", ">", "threshold", "5min")));
        assertThat(byPrometheusName.statusCode()).as(byPrometheusName.body()).isEqualTo(201);
        JsonNode stored = JSON.readTree(call("GET", "/api/v1/alerts/rules/lag", VIEWER, null).body());
        assertThat(stored.get("metric").asText()).isEqualTo("syncLatencyMs");
        assertThat(stored.get("threshold").asText()).isEqualTo("300000");
    }

    private static void expectRefusal(String method, String uri, String body, String field) throws Exception {
        HttpResponse<String> response = call(method, uri, OWNER, body);
        String what = method + " " + uri + (body == null ? "" : " with body " + body);
        assertThat(response.statusCode()).as(what + " -> " + response.body()).isEqualTo(400);
        JsonNode error = JSON.readTree(response.body());
        assertThat(error.get("field").asText()).as(what).isEqualTo(field);
        assertThat(error.get("error").asText()).as(what).contains(field.equals("body") ? "body" : field);
    }

    /** {@code path} with valid values for its parameters, except {@code invalid}, which gets an invalid name. */
    private static String concrete(String path, String invalid) {
        Matcher matcher = PATH_PARAMETER.matcher(path);
        StringBuilder uri = new StringBuilder();
        while (matcher.find()) {
            String value = matcher.group(1).equals(invalid)
                    ? URLEncoder.encode(INVALID_NAME, StandardCharsets.UTF_8).replace("+", "%20")
                    : "valid_" + matcher.group(1);
            matcher.appendReplacement(uri, value);
        }
        matcher.appendTail(uri);
        return uri.toString();
    }

    private static String badQueryValue(Map<String, Object> schema) {
        Object type = schema.get("type");
        if ("boolean".equals(type)) {
            return "maybe";
        }
        if ("integer".equals(type)) {
            return "many";
        }
        if ("date-time".equals(schema.get("format"))) {
            return "yesterday";
        }
        return null;
    }

    private static String wrongTypedJson(Map<String, Object> schema) {
        return switch (String.valueOf(schema.get("type"))) {
            case "boolean" -> "\"maybe\"";
            case "integer", "number" -> "\"many\"";
            default -> "{\"not\": \"this\"}";
        };
    }

    private static Map<String, Object> bodyProperties(Map<String, Object> operation) throws Exception {
        Map<String, Object> schema = map(map(map(map(operation.get("requestBody")).get("content")).get("application/json")).get("schema"));
        String ref = (String) schema.get("$ref");
        if (ref != null) {
            schema = map(map(map(openApi().get("components")).get("schemas")).get(ref.substring(ref.lastIndexOf('/') + 1)));
        }
        return map(schema.get("properties"));
    }

    private static Map<String, Map<String, Object>> documentedPaths() throws Exception {
        Map<String, Map<String, Object>> paths = new LinkedHashMap<>();
        map(openApi().get("paths")).forEach((path, operations) -> paths.put(path, map(operations)));
        return paths;
    }

    private static Map<String, Object> openApi() throws Exception {
        HttpResponse<String> document = call("GET", "/api/v1/openapi.yaml", null, null);
        assertThat(document.statusCode()).isEqualTo(200);
        return new Yaml().load(document.body());
    }

    private static JsonNode channel(String token, String name) throws Exception {
        HttpResponse<String> response = call("GET", "/api/v1/alerts/channels", token, null);
        assertThat(response.statusCode()).isEqualTo(200);
        for (JsonNode channel : JSON.readTree(response.body())) {
            if (channel.get("name").asText().equals(name)) {
                return channel;
            }
        }
        throw new AssertionError("No channel " + name + " in " + response.body());
    }

    private static HttpResponse<String> call(String method, String path, String token, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value == null ? Map.of() : (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object value) {
        return value == null ? List.of() : (List<Object>) value;
    }
}
