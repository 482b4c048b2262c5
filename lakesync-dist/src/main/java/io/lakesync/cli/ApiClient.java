package io.lakesync.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * How the CLI's client commands reach a running lakesync service: {@code --url} (else the local stack running in
 * {@code --data-dir}, else port 8080 on this machine), and a token from
 * {@code --token}, else {@code $LAKESYNC_TOKEN}, else the local stack's token file in {@code --data-dir}.
 */
final class ApiClient {

    /** A call the service refused or failed; the message is the service's own explanation. */
    static final class ApiException extends Exception {
        ApiException(String message) {
            super(message);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    static final URI DEFAULT_URL = URI.create("http://127.0.0.1:8080");

    @Option(names = "--url", paramLabel = "URL",
            description = "Base URL of the lakesync service; default: the local stack running in --data-dir, else "
                    + "http://127.0.0.1:8080.")
    private URI url;

    @Option(names = "--token", paramLabel = "TOKEN",
            description = "API token; default: $LAKESYNC_TOKEN, else the local stack's token in --data-dir.")
    private String token;

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "./lakesync-data",
            description = "Data folder of a local stack, to find its token (default: ${DEFAULT-VALUE}).")
    private Path dataDir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    Path dataDir() {
        return dataDir;
    }

    JsonNode get(String path) throws Exception {
        return send("GET", path, null);
    }

    JsonNode post(String path) throws Exception {
        return send("POST", path, null);
    }

    JsonNode put(String path, Object body) throws Exception {
        return send("PUT", path, JSON.writeValueAsString(body));
    }

    JsonNode delete(String path) throws Exception {
        return send("DELETE", path, null);
    }

    /** {@code --url}, else the URL the local stack in {@code --data-dir} serves on, else {@link #DEFAULT_URL}. */
    URI url() throws IOException {
        if (url != null) {
            return url;
        }
        URI local = LocalServiceUrl.read(dataDir);
        return local != null ? local : DEFAULT_URL;
    }

    private JsonNode send(String method, String path, String body) throws Exception {
        URI url = url();
        HttpRequest.Builder request = HttpRequest.newBuilder(url.resolve(path))
                .timeout(Duration.ofMinutes(2))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        String credential = credential();
        if (credential != null) {
            request.header("Authorization", "Bearer " + credential);
        }
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            throw new ApiException("No lakesync service answers at " + url + ". Start one ('lakesync local') or pass --url.");
        }
        JsonNode json = response.body().isBlank() ? JSON.nullNode() : parse(response.body());
        if (response.statusCode() >= 400) {
            String message = json.has("error") ? json.get("error").asText()
                    : json.has("title") ? json.get("title").asText() : response.body();
            throw new ApiException("HTTP " + response.statusCode() + ": " + message);
        }
        return json;
    }

    private String credential() throws IOException {
        if (token != null) {
            return token;
        }
        String fromEnv = System.getenv("LAKESYNC_TOKEN");
        return fromEnv != null && !fromEnv.isBlank() ? fromEnv : LocalToken.read(dataDir);
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return JSON.getNodeFactory().textNode(body);
        }
    }
}
