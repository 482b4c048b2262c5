package io.lakesync.bench.soak;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * What a soak found.
 *
 * @param kills kills survived: the service was SIGKILLed and restarted this many times
 * @param aims kills per aim
 * @param positions where each table's round was at the kills (tables × kills in total)
 * @param aimsMissed aimed kills whose stage did not come within a minute (they struck then anyway)
 * @param catchUpMillis per restart that was not killed first: restart until the lake covered everything
 *     written before the kill
 * @param stalls restarts that did not catch up within the catch-up timeout
 * @param failedLakeSnapshotReads coordinator lake-snapshot reads that failed (Fluss 0.9.1 race, read again)
 * @param finalCatchUp writers stopped until everything was in the lake; null when it did not get there in time
 */
record SoakResult(
        SoakSettings settings,
        Instant startedAt,
        Duration duration,
        int kills,
        Map<KillPlan.Aim, Integer> aims,
        Map<RoundStageWatch.Position, Integer> positions,
        int aimsMissed,
        List<Long> catchUpMillis,
        int stalls,
        int failedLakeSnapshotReads,
        @Nullable Duration finalCatchUp,
        List<TableCheck> checks) {

    boolean passed() {
        return kills == settings.kills()
                && stalls == 0
                && finalCatchUp != null
                && checks.stream().allMatch(TableCheck::exact);
    }

    long total(java.util.function.ToLongFunction<TableCheck> figure) {
        return checks.stream().mapToLong(figure).sum();
    }
}
