package io.lakesync.status;

import io.lakesync.tiering.FailureKind;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * What one or more engine events of a table do to its {@link EngineActivity}, as data: totals to add, the last
 * round's figures, the failure streak, and the state the last event left. Changes merge without loss
 * ({@link #then}): applying {@code a.then(b)} equals applying {@code a}, then {@code b}. So the events of a table
 * that wait for the state database fold into one change however many rounds run meanwhile, and a write that is
 * retried carries exactly what it carried the first time.
 *
 * @param rounds succeeded rounds, to add
 * @param failures failed rounds, to add
 * @param lastRound the figures of the last succeeded round, null if none succeeded
 * @param streakEnded whether a round succeeded or the table was released: the failure streak before is over
 * @param streakFailures failures since the streak ended (or in all, if it did not), to add to the streak
 * @param lastFailureKind the last failure's kind, if a round failed since the streak ended (or at all)
 * @param syncing whether a round runs after the last event
 * @param nextRetryAt the retry the last event scheduled, null unless it was a failure
 */
public record ActivityChange(
        long rounds,
        long failures,
        long rowsTiered,
        long bytesTiered,
        long filesWritten,
        @Nullable LastRound lastRound,
        boolean streakEnded,
        int streakFailures,
        @Nullable FailureKind lastFailureKind,
        @Nullable String lastError,
        boolean syncing,
        @Nullable Instant nextRetryAt) {

    /** The figures of a succeeded round. */
    public record LastRound(Duration duration, Instant endedAt, double rowsPerSecond) {}

    /** A round started: the table is syncing, the failure streak goes on. */
    public static ActivityChange started() {
        return new ActivityChange(0, 0, 0, 0, 0, null, false, 0, null, null, true, null);
    }

    /** A round committed (or found nothing to do): the totals grow, the failure streak ends. */
    public static ActivityChange succeeded(long rows, long bytes, int files, Duration duration, Instant endedAt) {
        double rate = duration.isZero() ? 0 : rows * 1000.0 / duration.toMillis();
        return new ActivityChange(1, 0, rows, bytes, files, new LastRound(duration, endedAt, rate), true, 0, null,
                null, false, null);
    }

    /** A round failed and is retried at {@code retryAt} (null: not scheduled). */
    public static ActivityChange failed(FailureKind kind, String error, @Nullable Instant retryAt) {
        return new ActivityChange(0, 1, 0, 0, 0, null, false, 1, kind, error, false, retryAt);
    }

    /** The table left this instance (given back, lost); totals stay, the failure streak ends. */
    public static ActivityChange released() {
        return new ActivityChange(0, 0, 0, 0, 0, null, true, 0, null, null, false, null);
    }

    /** This change followed by {@code next}, as one change. */
    public ActivityChange then(ActivityChange next) {
        boolean nextFailed = next.streakFailures > 0;
        boolean keepFailure = !nextFailed && !next.streakEnded;
        return new ActivityChange(
                rounds + next.rounds,
                failures + next.failures,
                rowsTiered + next.rowsTiered,
                bytesTiered + next.bytesTiered,
                filesWritten + next.filesWritten,
                next.lastRound != null ? next.lastRound : lastRound,
                streakEnded || next.streakEnded,
                next.streakEnded ? next.streakFailures : streakFailures + next.streakFailures,
                keepFailure ? lastFailureKind : next.lastFailureKind,
                keepFailure ? lastError : next.lastError,
                next.syncing,
                next.nextRetryAt);
    }

    /** {@code activity} per table with each of {@code changes} applied, made by {@code holder}'s engine. */
    public static Map<String, EngineActivity> applyAll(
            Map<String, EngineActivity> activity, Map<String, ActivityChange> changes, String holder) {
        Map<String, EngineActivity> all = new HashMap<>(activity);
        changes.forEach((table, change) ->
                all.put(table, change.applyTo(all.getOrDefault(table, EngineActivity.NONE), holder)));
        return all;
    }

    /** {@code activity} after this change, made by {@code holder}'s engine. */
    public EngineActivity applyTo(EngineActivity activity, String holder) {
        boolean failedSince = streakFailures > 0;
        boolean keepFailure = !failedSince && !streakEnded;
        return new EngineActivity(
                syncing,
                streakEnded ? streakFailures : activity.consecutiveFailures() + streakFailures,
                keepFailure ? activity.lastFailureKind() : lastFailureKind,
                keepFailure ? activity.lastError() : lastError,
                nextRetryAt,
                activity.rounds() + rounds,
                activity.failures() + failures,
                activity.rowsTiered() + rowsTiered,
                activity.bytesTiered() + bytesTiered,
                activity.filesWritten() + filesWritten,
                lastRound == null ? activity.lastRoundDuration() : lastRound.duration(),
                lastRound == null ? activity.lastRoundEndedAt() : lastRound.endedAt(),
                lastRound == null ? activity.lastRoundRowsPerSecond() : lastRound.rowsPerSecond(),
                holder,
                activity.maintenance());
    }
}
