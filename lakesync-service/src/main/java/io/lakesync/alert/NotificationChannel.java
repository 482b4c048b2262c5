package io.lakesync.alert;

import java.util.concurrent.CompletableFuture;

/** Sends alert events somewhere; one instance per configured channel. */
public interface NotificationChannel {

    /** Sends {@code event}, retrying as the channel sees fit; the future never completes exceptionally. */
    CompletableFuture<DeliveryOutcome> deliver(AlertEvent event);
}
