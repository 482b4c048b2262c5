package io.lakesync.retry;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with jitter, the one retry rule of lakesync (failing tables, webhook deliveries):
 * {@code initial * 2^(attempt-1)}, capped at {@code max}, then scaled by a random factor in [0.8, 1.2) so that
 * what failed together does not retry in lockstep.
 */
public record RetryBackoff(Duration initial, Duration max, DoubleSupplier random) {

    /** Backoff with a random jitter. */
    public static RetryBackoff jittered(Duration initial, Duration max) {
        return new RetryBackoff(initial, max, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** The wait before retry number {@code attempt} (1 for the first retry). */
    public Duration delay(int attempt) {
        int doublings = Math.min(Math.max(attempt - 1, 0), 30);
        long base = Math.min(max.toMillis(), initial.toMillis() << doublings);
        double jitter = 0.8 + 0.4 * random.getAsDouble();
        return Duration.ofMillis(Math.min(max.toMillis(), Math.round(base * jitter)));
    }
}
