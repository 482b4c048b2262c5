package io.lakesync.alert;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.state.StateStore;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The alerting capability of one lakesync instance, wired together: the stored rules, channels and history for
 * the API, and the evaluator that {@link #start} runs every {@code alert.evaluation-interval}.
 *
 * <p>With several instances on one state only the elected one evaluates (the others skip their turns), so each
 * alert transition is decided and notified once. An instance that becomes the leader starts from what the shared
 * state says is firing: its own view from an earlier leadership may be out of date.
 */
public final class Alerting implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Alerting.class);

    private final AlertRuleRepository rules;
    private final ChannelRepository channels;
    private final AlertEventRepository events;
    private final AlertNotifier notifier;
    private final AlertEvaluator evaluator;
    private final Duration interval;
    private ScheduledExecutorService scheduler;
    private BooleanSupplier leader;
    private boolean leading;

    private Alerting(StateStore store, WebhookSettings webhooks, Duration interval, TableMetricsSource metrics,
            Clock clock) {
        this.rules = new JdbcAlertRuleRepository(store);
        this.channels = new JdbcChannelRepository(store);
        this.events = new JdbcAlertEventRepository(store);
        this.notifier = new AlertNotifier(channels, events, webhooks);
        this.evaluator = new AlertEvaluator(rules, events, notifier, metrics, clock);
        this.interval = interval;
    }

    /** Alerting on {@code store} with the {@code alert.*} options of {@code config}; not yet started. */
    public static Alerting create(StateStore store, LakeSyncConfig config, TableMetricsSource metrics, Clock clock) {
        return create(store, WebhookSettings.fromConfig(config), config.get(LakeSyncOptions.ALERT_EVALUATION_INTERVAL),
                metrics, clock);
    }

    /** Alerting on {@code store} with explicit settings; not yet started. */
    public static Alerting create(StateStore store, WebhookSettings webhooks, Duration interval,
            TableMetricsSource metrics, Clock clock) {
        return new Alerting(store, webhooks, interval, metrics, clock);
    }

    /**
     * Evaluates the rules now and then every interval, on a thread of its own, whenever {@code leader} says this
     * instance is the one to.
     */
    public synchronized void start(BooleanSupplier leader) {
        this.leader = leader;
        if (scheduler != null) {
            throw new IllegalStateException("Alerting is already started");
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "lakesync-alert-evaluator");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(this::evaluateOnce, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        LOG.info("Alert evaluation started, every {}", interval);
    }

    private void evaluateOnce() {
        boolean leads = leader.getAsBoolean();
        if (leads != leading) {
            leading = leads;
            LOG.info(leads ? "This instance evaluates the alert rules now" : "Another instance evaluates the alert rules now");
            if (leads) {
                evaluator.forget();
            }
        }
        if (!leads) {
            return;
        }
        try {
            evaluator.evaluate();
        } catch (RuntimeException e) {
            // A failure must not end the schedule; the next evaluation retries.
            LOG.warn("Alert evaluation failed, retrying in {}: {}", interval, e.toString());
        }
    }

    public AlertRuleRepository rules() {
        return rules;
    }

    public ChannelRepository channels() {
        return channels;
    }

    public AlertEventRepository events() {
        return events;
    }

    public AlertEvaluator evaluator() {
        return evaluator;
    }

    public AlertNotifier notifier() {
        return notifier;
    }

    /** Stops evaluating and gives deliveries in progress a few seconds to end. */
    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdown();
            try {
                if (!scheduler.awaitTermination(10, TimeUnit.SECONDS)) {
                    scheduler.shutdownNow();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            scheduler = null;
        }
        notifier.close();
    }
}
