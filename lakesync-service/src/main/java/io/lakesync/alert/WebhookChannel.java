package io.lakesync.alert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * POSTs each alert event as JSON to a URL. Connection failures, timeouts, 429 and 5xx answers are retried with
 * exponential backoff up to {@link WebhookSettings#maxAttempts()}; other answers end the delivery at once. Nothing
 * blocks a thread while waiting: requests are asynchronous and retries are scheduled.
 *
 * <p>The body is {@code {"eventId", "state", "rule", "table", "severity", "metric", "condition", "value", "at",
 * "firedAt", "message"}} with times in ISO-8601; the header {@code X-Lakesync-Event-Id} carries the event id too,
 * so receivers can drop the duplicate a retry after a lost answer may cause.
 */
final class WebhookChannel implements NotificationChannel {

    private static final Logger LOG = LoggerFactory.getLogger(WebhookChannel.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final URI url;
    private final HttpClient client;
    private final WebhookSettings settings;
    private final Executor executor;

    WebhookChannel(String name, URI url, HttpClient client, WebhookSettings settings, Executor executor) {
        this.name = name;
        this.url = url;
        this.client = client;
        this.settings = settings;
        this.executor = executor;
    }

    @Override
    public CompletableFuture<DeliveryOutcome> deliver(AlertEvent event) {
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(settings.timeout())
                .header("Content-Type", "application/json")
                .header("User-Agent", "lakesync")
                .header("X-Lakesync-Event-Id", Long.toString(event.id()))
                .POST(HttpRequest.BodyPublishers.ofByteArray(payload(event)))
                .build();
        return attempt(request, event, 1);
    }

    private CompletableFuture<DeliveryOutcome> attempt(HttpRequest request, AlertEvent event, int attempt) {
        return client.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .handle((response, error) -> {
                    boolean retryable;
                    String detail;
                    if (error == null) {
                        int status = response.statusCode();
                        if (status / 100 == 2) {
                            return CompletableFuture.completedFuture(
                                    new DeliveryOutcome(true, attempt, "HTTP " + status));
                        }
                        retryable = status == 429 || status / 100 == 5;
                        detail = "HTTP " + status;
                    } else {
                        Throwable cause = error instanceof CompletionException && error.getCause() != null
                                ? error.getCause() : error;
                        retryable = true;
                        detail = cause.getClass().getSimpleName()
                                + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
                    }
                    if (!retryable || attempt >= settings.maxAttempts()) {
                        return CompletableFuture.completedFuture(new DeliveryOutcome(false, attempt,
                                detail + " after " + attempt + " attempt(s)"));
                    }
                    Duration backoff = settings.retries().delay(attempt);
                    LOG.debug("Webhook {} answered event {} with {}; retrying in {}",
                            name, event.id(), detail, backoff);
                    Executor delayed =
                            CompletableFuture.delayedExecutor(backoff.toMillis(), TimeUnit.MILLISECONDS, executor);
                    return CompletableFuture.supplyAsync(() -> attempt, delayed)
                            .thenCompose(previous -> attempt(request, event, previous + 1));
                })
                .thenCompose(outcome -> outcome);
    }

    static byte[] payload(AlertEvent event) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("eventId", event.id());
        body.put("state", event.state().name());
        body.put("rule", event.rule());
        body.put("table", event.table());
        body.put("severity", event.severity().name());
        body.put("metric", event.metric());
        body.put("condition", event.condition());
        body.put("value", event.value());
        body.put("at", event.at().toString());
        body.put("firedAt", event.firedAt().toString());
        body.put("message", event.message());
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write alert event " + event.id() + " as JSON", e);
        }
    }
}
