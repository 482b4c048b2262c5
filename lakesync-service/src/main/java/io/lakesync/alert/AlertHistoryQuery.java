package io.lakesync.alert;

import java.time.Instant;

/**
 * Which alert events to list, newest first.
 *
 * @param rule only this rule's events, or null for all
 * @param table only this table's events, or null for all
 * @param since only events at or after this time, or null for all
 * @param limit at most this many events, at least 1
 */
public record AlertHistoryQuery(String rule, String table, Instant since, int limit) {

    public AlertHistoryQuery {
        if (limit <= 0) {
            throw new IllegalArgumentException("The alert history limit must be positive, got " + limit + ".");
        }
    }

    /** The newest {@code limit} events. */
    public static AlertHistoryQuery latest(int limit) {
        return new AlertHistoryQuery(null, null, null, limit);
    }
}
