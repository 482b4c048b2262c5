package io.lakesync.alert;

import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs one line per alert event: firing CRITICAL alerts at ERROR, WARNING at WARN, INFO and all resolved alerts
 * at INFO.
 */
final class LogChannel implements NotificationChannel {

    private static final Logger LOG = LoggerFactory.getLogger(LogChannel.class);

    @Override
    public CompletableFuture<DeliveryOutcome> deliver(AlertEvent event) {
        String line = "Alert {} [{}] rule '{}': {}";
        Object[] args = {event.state(), event.severity(), event.rule(), event.message()};
        if (event.state() == AlertEvent.State.RESOLVED || event.severity() == Severity.INFO) {
            LOG.info(line, args);
        } else if (event.severity() == Severity.WARNING) {
            LOG.warn(line, args);
        } else {
            LOG.error(line, args);
        }
        return CompletableFuture.completedFuture(new DeliveryOutcome(true, 1, "logged"));
    }
}
