package io.lakesync.bench.soak;

import java.nio.file.Path;
import java.time.Duration;
import javax.annotation.Nullable;

/**
 * One soak's settings (see {@link SoakMain} for their meaning and defaults).
 *
 * @param rowsPerSecond rows (operations) per second written into each of the three tables
 * @param maxGap a random kill strikes at most this long after the service caught up
 */
record SoakSettings(
        int kills,
        long seed,
        Duration freshness,
        int rowsPerSecond,
        int buckets,
        Duration partitionEvery,
        Duration maxGap,
        Duration catchUpTimeout,
        Duration finalTimeout,
        String heap,
        @Nullable Path dataDir,
        boolean keepData) {

    SoakSettings {
        positive(kills, "--kills");
        positive(rowsPerSecond, "--rate");
        positive(buckets, "--buckets");
        for (Duration d : new Duration[] {freshness, partitionEvery, catchUpTimeout, finalTimeout}) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("Durations must be positive: " + d);
            }
        }
    }

    private static void positive(int value, String option) {
        if (value < 1) {
            throw new IllegalArgumentException(option + " must be at least 1, got " + value + ".");
        }
    }
}
