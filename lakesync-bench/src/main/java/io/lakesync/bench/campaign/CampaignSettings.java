package io.lakesync.bench.campaign;

import static io.lakesync.bench.Cli.atLeast;
import static io.lakesync.bench.Cli.heapSize;
import static io.lakesync.bench.Cli.positive;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.annotation.Nullable;

/**
 * One campaign's settings (see {@link CampaignMain} for their meaning and defaults).
 *
 * @param kinds the fault kinds to inject, by name; empty for every kind the cluster can do
 * @param tabletServers tablet servers of the embedded cluster (the local stack's {@code local.tablet-servers})
 * @param rowsPerSecond rows (operations) per second written into each of the three tables
 */
record CampaignSettings(
        int faults,
        List<String> kinds,
        int instances,
        int tabletServers,
        long seed,
        Duration freshness,
        int rowsPerSecond,
        int buckets,
        Duration partitionEvery,
        Duration minHold,
        Duration maxHold,
        Duration catchUpTimeout,
        Duration finalTimeout,
        String heap,
        @Nullable Path dataDir,
        boolean keepData) {

    CampaignSettings {
        atLeast(faults, 1, "--faults");
        atLeast(instances, 1, "--instances");
        atLeast(tabletServers, 1, "--tablet-servers");
        atLeast(rowsPerSecond, 1, "--rate");
        atLeast(buckets, 1, "--buckets");
        positive(freshness, "--freshness");
        positive(partitionEvery, "--partition-every");
        positive(maxHold, "--max-hold");
        positive(catchUpTimeout, "--catch-up-timeout");
        positive(finalTimeout, "--final-timeout");
        heapSize(heap, "--heap");
        if (minHold.isNegative() || minHold.compareTo(maxHold) > 0) {
            throw new IllegalArgumentException("--min-hold must be between 0 and --max-hold (" + maxHold.toMillis()
                    + " ms), got " + minHold.toMillis() + " ms.");
        }
        kinds = List.copyOf(kinds);
    }
}
