package io.lakesync.bench.campaign;

import io.lakesync.bench.soak.TableCheck;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.ToLongFunction;
import javax.annotation.Nullable;

/**
 * A campaign's outcome: per fault kind ({@link KindStats}), what happened between faults, the final catch-up
 * and the row-by-row check of each table.
 *
 * @param skipped kinds left out, each with why
 * @param endedEarly why the campaign stopped injecting before its last fault; null if it did not
 * @param finalCatchUp how long the lake took to hold everything after the writer stopped; null if it did not
 */
record CampaignResult(
        CampaignSettings settings,
        Instant startedAt,
        Duration duration,
        List<KindStats> kinds,
        KindStats betweenFaults,
        List<String> skipped,
        @Nullable String endedEarly,
        @Nullable Duration finalCatchUp,
        List<TableCheck> checks) {

    int injected() {
        return kinds.stream().mapToInt(k -> k.injected).sum();
    }

    long total(ToLongFunction<TableCheck> figure) {
        return checks.stream().mapToLong(figure).sum();
    }

    boolean passed() {
        return endedEarly == null
                && finalCatchUp != null
                && checks.stream().allMatch(TableCheck::exact)
                && kinds.stream().allMatch(KindStats::clean)
                && betweenFaults.clean();
    }
}
