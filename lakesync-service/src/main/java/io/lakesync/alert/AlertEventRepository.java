package io.lakesync.alert;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The alert history and the set of alerts firing now. Firing and resolving go through the database so that each
 * happens once per alert, even when several lakesync instances evaluate the same rules.
 */
public interface AlertEventRepository {

    /**
     * Stores {@code firing} (a FIRING event) and marks its rule and table as firing, unless they already are.
     *
     * @return the stored event with its id, or empty if the alert was already firing
     */
    Optional<AlertEvent> fire(AlertEvent firing);

    /**
     * Stores the RESOLVED event of the alert firing for {@code rule} on {@code table}, copying severity, metric,
     * condition, channels and firing time from its FIRING event, unless it is not firing.
     *
     * @param value the value that no longer meets the condition, or null if the rule or table went away
     * @return the stored event, or empty if the alert was not firing
     */
    Optional<AlertEvent> resolve(String rule, String table, Double value, Instant at, String message);

    /** The FIRING events of the alerts firing now, oldest first. */
    List<AlertEvent> active();

    List<AlertEvent> history(AlertHistoryQuery query);

    /** Stores how sending event {@code eventId} to {@code channel} ended. */
    void recordDelivery(long eventId, String channel, DeliveryOutcome outcome);

    /** How sending event {@code eventId} ended, per channel, in the order the outcomes were stored. */
    List<DeliveryRecord> deliveries(long eventId);
}
