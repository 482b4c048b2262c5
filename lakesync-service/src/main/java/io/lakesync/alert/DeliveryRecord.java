package io.lakesync.alert;

import java.time.Instant;

/**
 * A stored {@link DeliveryOutcome}.
 *
 * @param eventId the event sent
 * @param channel the channel it was sent to
 * @param outcome how it ended
 * @param at when it ended
 */
public record DeliveryRecord(long eventId, String channel, DeliveryOutcome outcome, Instant at) {}
