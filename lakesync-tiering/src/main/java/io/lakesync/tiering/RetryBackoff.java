package io.lakesync.tiering;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with jitter for a failing table: {@code initial * 2^(attempt-1)}, capped at
 * {@code max}, then scaled by a random factor in [0.8, 1.2) so failing tables do not retry in lockstep.
 */
public record RetryBackoff(Duration initial, Duration max, DoubleSupplier random) {

    /** The wait before retry number {@code attempt} (1 for the first retry). */
    public Duration delay(int attempt) {
        int doublings = Math.min(Math.max(attempt - 1, 0), 30);
        long base = Math.min(max.toMillis(), initial.toMillis() << doublings);
        double jitter = 0.8 + 0.4 * random.getAsDouble();
        return Duration.ofMillis(Math.min(max.toMillis(), Math.round(base * jitter)));
    }
}
