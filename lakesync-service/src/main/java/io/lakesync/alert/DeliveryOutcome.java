package io.lakesync.alert;

/**
 * How sending one event to one channel ended.
 *
 * @param delivered whether the channel accepted it
 * @param attempts how many times it was sent
 * @param detail what happened last, for example {@code HTTP 200} or {@code HTTP 503 after 5 attempts}
 */
public record DeliveryOutcome(boolean delivered, int attempts, String detail) {}
