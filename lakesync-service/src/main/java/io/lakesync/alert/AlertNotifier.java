package io.lakesync.alert;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends alert events to their channels in the background, so that the evaluator never waits for a webhook, and
 * stores how each delivery ended. Events of one alert (rule and table) reach one channel in the order they
 * happened: a RESOLVED event waits until its FIRING event is delivered or given up.
 */
public final class AlertNotifier implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AlertNotifier.class);

    private final ChannelRepository channels;
    private final AlertEventRepository events;
    private final WebhookSettings settings;
    private final ExecutorService executor;
    private final HttpClient httpClient;
    private final NotificationChannel logChannel = new LogChannel();
    /** Per channel and alert, the last delivery queued, which the next one of that alert waits for. */
    private final Map<String, CompletableFuture<?>> lastDelivery = new ConcurrentHashMap<>();
    private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();

    public AlertNotifier(ChannelRepository channels, AlertEventRepository events, WebhookSettings settings) {
        this.channels = channels;
        this.events = events;
        this.settings = settings;
        AtomicInteger threads = new AtomicInteger();
        this.executor = Executors.newFixedThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "lakesync-alert-notifier-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.httpClient = HttpClient.newBuilder()
                .executor(executor)
                .connectTimeout(settings.timeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** Queues {@code event} for each of its channels and returns at once. */
    public void send(AlertEvent event) {
        for (String channelName : event.channels()) {
            String order = channelName + '\u0000' + event.rule() + '\u0000' + event.table();
            CompletableFuture<?> delivery = lastDelivery.compute(order, (key, previous) ->
                    (previous == null ? CompletableFuture.completedFuture(null) : previous)
                            .thenComposeAsync(ignored -> deliver(event, channelName), executor)
                            .thenAcceptAsync(outcome -> record(event, channelName, outcome), executor)
                            .exceptionally(failure -> {
                                LOG.warn("Could not send alert event {} to channel '{}': {}", event.id(), channelName,
                                        failure.toString());
                                return null;
                            }));
            inFlight.add(delivery);
            delivery.whenComplete((ignored, failure) -> {
                inFlight.remove(delivery);
                lastDelivery.remove(order, delivery);
            });
        }
    }

    /**
     * Waits until every event sent so far has been delivered or given up, or {@code timeout} has passed.
     *
     * @return whether all deliveries ended in time
     */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!inFlight.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            try {
                CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).get(left, TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                // failures are logged where they happen; only the waiting matters here
            } catch (TimeoutException e) {
                return false;
            }
        }
        return true;
    }

    private CompletableFuture<DeliveryOutcome> deliver(AlertEvent event, String channelName) {
        Optional<ChannelConfig> channel = channels.get(channelName);
        if (channel.isEmpty()) {
            return CompletableFuture.completedFuture(
                    new DeliveryOutcome(false, 0, "channel '" + channelName + "' no longer exists"));
        }
        ChannelConfig config = channel.get();
        NotificationChannel sender = config.type() == ChannelConfig.Type.LOG
                ? logChannel
                : new WebhookChannel(config.name(), config.url(), httpClient, settings, executor);
        return sender.deliver(event);
    }

    private void record(AlertEvent event, String channelName, DeliveryOutcome outcome) {
        if (!outcome.delivered()) {
            LOG.warn("Alert event {} ({} of rule '{}' on {}) was not delivered to channel '{}': {}", event.id(),
                    event.state(), event.rule(), event.table(), channelName, outcome.detail());
        }
        events.recordDelivery(event.id(), channelName, outcome);
    }

    /** Gives deliveries in progress {@code grace} to end, then stops; later retries are dropped. */
    public void close(Duration grace) {
        try {
            if (!awaitIdle(grace)) {
                LOG.warn("Stopping alert notifications with {} delivery(ies) unfinished", inFlight.size());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor.shutdownNow();
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}
