package io.lakesync.alert;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Evaluates the enabled alert rules against a snapshot of the table metrics each time {@link #evaluate()} is
 * called (periodically, by {@link Alerting}), keeping one state per rule and table:
 *
 * <pre>
 *                condition holds                  held for the rule's 'for'
 *   (inactive) ──────────────────▶ PENDING ───────────────────────────▶ FIRING ◀──┐
 *        ▲                            │          emits FIRING             │  │     │ still holds
 *        │      condition fails       │                                   │  └─────┘
 *        ├────────────────────────────┘                                   │
 *        │   condition fails, table no longer reported, rule deleted      │
 *        └────────────────────────────────────────────────────────────────┘
 *                               emits RESOLVED
 * </pre>
 *
 * <p>With a zero 'for' an alert goes from inactive to FIRING in one evaluation. Each FIRING and RESOLVED event is
 * stored through {@link AlertEventRepository#fire} and {@link AlertEventRepository#resolve}, which let it happen
 * once per alert even if several instances evaluate, and then handed to the {@link AlertNotifier}. Alerts that are
 * firing in the database (after a restart, or fired by another instance) are adopted as FIRING, so they resolve
 * here when their condition clears; an adopted alert whose table this instance never reports is left alone.
 *
 * <p>Time comes only from the injected clock. Evaluations never overlap: {@link #evaluate()} is synchronized.
 */
public final class AlertEvaluator {

    private static final Logger LOG = LoggerFactory.getLogger(AlertEvaluator.class);

    private enum Phase {
        PENDING,
        FIRING
    }

    private record Key(String rule, String table) {}

    /** The state of one rule on one table; absent means inactive. */
    private static final class Tracked {
        Phase phase;
        Instant pendingSince;
        /** Whether this instance has reported the table; false for alerts adopted from the database. */
        boolean seen;

        Tracked(Phase phase, Instant pendingSince, boolean seen) {
            this.phase = phase;
            this.pendingSince = pendingSince;
            this.seen = seen;
        }
    }

    private final AlertRuleRepository rules;
    private final AlertEventRepository events;
    private final AlertNotifier notifier;
    private final TableMetricsSource metrics;
    private final Clock clock;
    private final Map<Key, Tracked> tracked = new HashMap<>();
    private CounterHistory counters = new CounterHistory();

    public AlertEvaluator(
            AlertRuleRepository rules,
            AlertEventRepository events,
            AlertNotifier notifier,
            TableMetricsSource metrics,
            Clock clock) {
        this.rules = rules;
        this.events = events;
        this.notifier = notifier;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * Forgets every alert's state and the counter history; the next evaluation starts from the alerts firing in
     * the database. For an instance that (again) becomes the one evaluating.
     */
    public synchronized void forget() {
        tracked.clear();
        counters = new CounterHistory();
    }

    /**
     * Runs one evaluation: reads the metrics and the rules, moves every rule and table along its state machine and
     * sends the events that result.
     *
     * @return the events this evaluation stored and sent, in order
     * @throws io.lakesync.state.StateStoreException if the state database fails; the states stay as they were for
     *     the alerts not yet handled, so the next evaluation retries them
     */
    public synchronized List<AlertEvent> evaluate() {
        Instant now = clock.instant();
        Map<String, Map<String, Double>> snapshot = metrics.snapshot();
        Map<String, AlertRule> enabled = new HashMap<>();
        Duration longestWindow = Duration.ZERO;
        for (AlertRule rule : rules.list()) {
            if (rule.enabled()) {
                enabled.put(rule.name(), rule);
                if (rule.window() != null && rule.window().compareTo(longestWindow) > 0) {
                    longestWindow = rule.window();
                }
            }
        }
        counters.record(now, snapshot, longestWindow);
        adoptFiringAlerts();

        List<AlertEvent> emitted = new ArrayList<>();
        Set<Key> evaluated = new HashSet<>();
        for (AlertRule rule : enabled.values()) {
            for (Map.Entry<String, Map<String, Double>> table : snapshot.entrySet()) {
                if (rule.tables().matches(table.getKey())) {
                    Key key = new Key(rule.name(), table.getKey());
                    evaluated.add(key);
                    Double value = rule.window() == null
                            ? table.getValue().get(rule.metric().id())
                            : counters.increase(table.getKey(), rule.metric().id(), rule.window(), now);
                    step(rule, key, value, now, emitted);
                }
            }
        }
        for (Key key : new ArrayList<>(tracked.keySet())) {
            if (!evaluated.contains(key)) {
                vanished(key, enabled.get(key.rule()), snapshot.containsKey(key.table()), now, emitted);
            }
        }
        return emitted;
    }

    private void step(AlertRule rule, Key key, Double value, Instant now, List<AlertEvent> emitted) {
        boolean holds = value != null && rule.comparison().holds(value, rule.threshold());
        Tracked state = tracked.get(key);
        if (!holds) {
            if (state != null && state.phase == Phase.PENDING) {
                tracked.remove(key);
                LOG.debug("Alert rule '{}' on {} no longer pending", key.rule(), key.table());
            } else if (state != null) {
                String message = value == null
                        ? rule.metric().id() + " is no longer reported for " + key.table()
                        : rule.condition() + " no longer holds on " + key.table() + ": " + describe(rule, value);
                resolve(key, value, now, message, emitted);
            }
            return;
        }
        if (state == null) {
            state = new Tracked(Phase.PENDING, now, true);
            tracked.put(key, state);
            LOG.debug("Alert rule '{}' on {} pending: {}", key.rule(), key.table(), describe(rule, value));
        }
        state.seen = true;
        if (state.phase == Phase.PENDING && !now.isBefore(state.pendingSince.plus(rule.forDuration()))) {
            AlertEvent firing = new AlertEvent(0, rule.name(), key.table(), AlertEvent.State.FIRING, rule.severity(),
                    rule.metric().id(), rule.condition(), value, now, now, rule.channels(),
                    rule.condition() + " on " + key.table() + ": " + describe(rule, value));
            events.fire(firing).ifPresent(event -> publish(event, emitted));
            state.phase = Phase.FIRING;
        }
    }

    /** A tracked alert whose rule or table was not evaluated this time. */
    private void vanished(Key key, AlertRule rule, boolean tableReported, Instant now, List<AlertEvent> emitted) {
        Tracked state = tracked.get(key);
        if (rule != null && !state.seen) {
            return; // adopted from another instance that reports this table; it is that instance's to resolve
        }
        if (state.phase == Phase.PENDING) {
            tracked.remove(key);
            return;
        }
        String message;
        if (rule == null) {
            message = "rule '" + key.rule() + "' was deleted or disabled while firing on " + key.table();
        } else if (tableReported) {
            message = "table " + key.table() + " is no longer in the rule's scope " + rule.tables();
        } else {
            message = "table " + key.table() + " is no longer reported";
        }
        resolve(key, null, now, message, emitted);
    }

    private void resolve(Key key, Double value, Instant now, String message, List<AlertEvent> emitted) {
        events.resolve(key.rule(), key.table(), value, now, message).ifPresent(event -> publish(event, emitted));
        tracked.remove(key);
    }

    private void publish(AlertEvent event, List<AlertEvent> emitted) {
        LOG.info("Alert {} for rule '{}': {}", event.state(), event.rule(), event.message());
        emitted.add(event);
        notifier.send(event);
    }

    /** Takes over the alerts firing in the database and forgets local ones resolved elsewhere. */
    private void adoptFiringAlerts() {
        Set<Key> firing = new HashSet<>();
        for (AlertEvent event : events.active()) {
            Key key = new Key(event.rule(), event.table());
            firing.add(key);
            Tracked state = tracked.get(key);
            if (state == null) {
                tracked.put(key, new Tracked(Phase.FIRING, null, false));
            } else {
                state.phase = Phase.FIRING;
            }
        }
        for (Iterator<Map.Entry<Key, Tracked>> it = tracked.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, Tracked> entry = it.next();
            if (entry.getValue().phase == Phase.FIRING && !firing.contains(entry.getKey())) {
                it.remove();
            }
        }
    }

    private static String describe(AlertRule rule, double value) {
        return (rule.window() == null ? "value " : "increase ") + AlertRule.formatNumber(value);
    }
}
