package io.lakesync.alert;

import java.time.Instant;
import java.util.List;

/**
 * One entry of the alert history: an alert of a rule on a table started firing, or resolved.
 *
 * @param id increasing sequence number in the state database; 0 before it is stored
 * @param rule name of the rule
 * @param table the table, as {@code "<database>.<table>"}
 * @param state whether the alert fired or resolved
 * @param severity the rule's severity when it fired
 * @param metric id of the watched metric
 * @param condition the rule's condition when it fired, for example {@code syncLatencyMs > 300000 for 2 min}
 * @param value the metric value (or increase, for windowed rules) that caused the event; null when the alert
 *     resolved because the rule or the table went away
 * @param at when the event happened
 * @param firedAt when the alert fired; equal to {@code at} on FIRING events
 * @param channels the channels notified, sorted
 * @param message one line for people
 */
public record AlertEvent(
        long id,
        String rule,
        String table,
        State state,
        Severity severity,
        String metric,
        String condition,
        Double value,
        Instant at,
        Instant firedAt,
        List<String> channels,
        String message) {

    /** What happened. */
    public enum State {
        FIRING,
        RESOLVED
    }

    public AlertEvent {
        channels = List.copyOf(channels);
    }

    AlertEvent withId(long newId) {
        return new AlertEvent(
                newId, rule, table, state, severity, metric, condition, value, at, firedAt, channels, message);
    }
}
