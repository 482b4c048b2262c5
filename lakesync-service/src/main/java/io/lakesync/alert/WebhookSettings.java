package io.lakesync.alert;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.retry.RetryBackoff;
import java.time.Duration;

/**
 * How webhook notifications are sent: at most {@code maxAttempts} requests of at most {@code timeout} each,
 * waiting {@code initialBackoff} before the first retry and twice as long before each further one, up to
 * {@link #MAX_BACKOFF}.
 */
public record WebhookSettings(int maxAttempts, Duration initialBackoff, Duration timeout) {

    public static final Duration MAX_BACKOFF = Duration.ofMinutes(5);

    public WebhookSettings {
        if (maxAttempts < 1) {
            throw new ConfigException("Invalid value " + maxAttempts + " for config key '"
                    + LakeSyncOptions.ALERT_WEBHOOK_MAX_ATTEMPTS.key() + "': at least 1 attempt is needed.");
        }
        if (initialBackoff.isNegative()) {
            throw new ConfigException("Invalid value " + initialBackoff + " for config key '"
                    + LakeSyncOptions.ALERT_WEBHOOK_INITIAL_BACKOFF.key() + "': it must not be negative.");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new ConfigException("Invalid value " + timeout + " for config key '"
                    + LakeSyncOptions.ALERT_WEBHOOK_TIMEOUT.key() + "': it must be more than 0s.");
        }
    }

    public static WebhookSettings fromConfig(LakeSyncConfig config) {
        return new WebhookSettings(
                config.get(LakeSyncOptions.ALERT_WEBHOOK_MAX_ATTEMPTS),
                config.get(LakeSyncOptions.ALERT_WEBHOOK_INITIAL_BACKOFF),
                config.get(LakeSyncOptions.ALERT_WEBHOOK_TIMEOUT));
    }

    /** The waits between attempts: doubling from {@code initialBackoff} up to {@link #MAX_BACKOFF}, jittered. */
    RetryBackoff retries() {
        return RetryBackoff.jittered(initialBackoff, MAX_BACKOFF);
    }
}
