package io.lakesync.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;

/** The few calls of Flink's REST API the migration needs: list jobs, read a job's plan and configuration, cancel. */
public final class FlinkRestClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final URI url;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public FlinkRestClient(URI url) {
        this.url = url;
    }

    public URI url() {
        return url;
    }

    /** Flink's REST endpoint did not answer, or answered with an error; the message says which in one line. */
    public static class FlinkRestException extends IOException {
        FlinkRestException(String message) {
            super(message);
        }
    }

    /** No Flink REST endpoint answers at the URL: none runs there, or its cluster shut down. */
    public static final class FlinkUnreachableException extends FlinkRestException {
        FlinkUnreachableException(URI url, String how) {
            super("No Flink REST endpoint answers at " + url + " (--flink-url; " + how + ").");
        }
    }

    /** {@code /jobs/overview}: every job the cluster knows, running or finished. */
    List<JsonNode> jobs() throws IOException, InterruptedException {
        List<JsonNode> jobs = new ArrayList<>();
        get("/jobs/overview").orElseThrow().path("jobs").forEach(jobs::add);
        return jobs;
    }

    /** {@code /jobs/:id}: state, name, start and end time; empty when Flink does not know the job. */
    Optional<JsonNode> job(String jobId) throws IOException, InterruptedException {
        return get("/jobs/" + jobId);
    }

    /** The operator descriptions of the job's plan ({@code /jobs/:id/plan}). */
    List<String> operators(String jobId) throws IOException, InterruptedException {
        List<String> operators = new ArrayList<>();
        get("/jobs/" + jobId + "/plan").ifPresent(plan -> plan.path("plan").path("nodes")
                .forEach(node -> operators.add(node.path("description").asText(node.path("operator").asText()))));
        return operators;
    }

    /**
     * The job's parameters: its global job parameters ({@code /jobs/:id/config}, {@code user-config}) over the
     * program arguments of an application-mode job ({@code /jobs/:id/jobmanager/config},
     * {@code $internal.application.program-args}, as {@code --key value} pairs).
     */
    Map<String, String> parameters(String jobId) throws IOException, InterruptedException {
        Map<String, String> parameters = new LinkedHashMap<>();
        Optional<JsonNode> jobManagerConfig;
        try {
            jobManagerConfig = get("/jobs/" + jobId + "/jobmanager/config");
        } catch (IOException e) {
            // Flink before 1.17 has no such endpoint, some answer it with an error: the job parameters remain.
            jobManagerConfig = Optional.empty();
        }
        jobManagerConfig.ifPresent(entries -> entries.forEach(entry -> {
            if ("$internal.application.program-args".equals(entry.path("key").asText())) {
                parameters.putAll(programArguments(entry.path("value").asText()));
            }
        }));
        get("/jobs/" + jobId + "/config").ifPresent(config -> config.path("execution-config").path("user-config")
                .fields().forEachRemaining(e -> parameters.put(stripDashes(e.getKey()), e.getValue().asText())));
        return parameters;
    }

    /** Cancels the job ({@code PATCH /jobs/:id?mode=cancel}); Flink answers at once and cancels asynchronously. */
    void cancel(String jobId) throws IOException, InterruptedException {
        send(HttpRequest.newBuilder(url.resolve("/jobs/" + jobId + "?mode=cancel"))
                .method("PATCH", HttpRequest.BodyPublishers.noBody()), true);
    }

    /**
     * Program arguments as Flink shows them, {@code [--a, x, --b, y]} (a YAML flow sequence: Flink 1.19 and later
     * with its standard YAML configuration) or {@code --a;x;--b;y} (before), as {@code a=x, b=y}.
     */
    static Map<String, String> programArguments(String shown) {
        List<String> parts = shown.startsWith("[") && shown.endsWith("]") ? yamlList(shown) : List.of(shown.split(";"));
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i).startsWith("-") && i + 1 < parts.size() && !parts.get(i + 1).startsWith("--")) {
                parameters.put(stripDashes(parts.get(i)), parts.get(++i));
            }
        }
        return parameters;
    }

    /** A YAML flow sequence's items, each read as the plain string it shows (no numbers, booleans or dates). */
    private static List<String> yamlList(String shown) {
        LoaderOptions options = new LoaderOptions();
        Resolver stringsOnly = new Resolver() {
            @Override
            protected void addImplicitResolvers() {}
        };
        Yaml yaml = new Yaml(new SafeConstructor(options), new Representer(new DumperOptions()), new DumperOptions(),
                options, stringsOnly);
        Object items = yaml.load(shown);
        return items instanceof List<?> list ? list.stream().map(String::valueOf).toList() : List.of();
    }

    private static String stripDashes(String key) {
        return key.replaceFirst("^-+", "");
    }

    /** The first line of Flink's first error message: what follows is its server-side stack trace. */
    private static String firstError(String body) {
        try {
            JsonNode errors = JSON.readTree(body).path("errors");
            if (errors.isArray() && !errors.isEmpty()) {
                return errors.get(0).asText().lines().findFirst().orElse("").strip();
            }
        } catch (IOException notJson) {
            // Not Flink's error shape: its first line says enough.
        }
        return body.lines().findFirst().orElse("").strip();
    }

    private Optional<JsonNode> get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(url.resolve(path)).GET(), false);
    }

    private Optional<JsonNode> send(HttpRequest.Builder request, boolean mustSucceed)
            throws IOException, InterruptedException {
        HttpResponse<String> response;
        try {
            response = http.send(request.timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new FlinkUnreachableException(url, "no answer within " + TIMEOUT.toSeconds() + " s");
        } catch (IOException e) {
            // Refused, reset or closed mid-request: a cluster shutting down shows any of them.
            throw new FlinkUnreachableException(url, e.getClass().getSimpleName());
        }
        if (response.statusCode() == 404 && !mustSucceed) {
            return Optional.empty();
        }
        if (response.statusCode() >= 400) {
            throw new FlinkRestException("Flink at " + url + " answered " + response.statusCode() + " to "
                    + response.request().method() + " " + response.uri().getPath() + ": "
                    + firstError(response.body()));
        }
        return Optional.of(response.body().isBlank() ? JSON.nullNode() : JSON.readTree(response.body()));
    }
}
