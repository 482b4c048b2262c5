package io.lakesync.bench.soak;

import static io.lakesync.bench.Cli.atLeast;
import static io.lakesync.bench.Cli.heapSize;
import static io.lakesync.bench.Cli.positive;

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
        atLeast(kills, 1, "--kills");
        atLeast(rowsPerSecond, 1, "--rate");
        atLeast(buckets, 1, "--buckets");
        positive(freshness, "--freshness");
        positive(partitionEvery, "--partition-every");
        positive(maxGap, "--max-gap");
        positive(catchUpTimeout, "--catch-up-timeout");
        positive(finalTimeout, "--final-timeout");
        heapSize(heap, "--heap");
    }
}
