package io.lakesync.status;

import io.lakesync.tiering.FailureKind;
import java.time.Duration;
import java.time.Instant;
import javax.annotation.Nullable;

/** Derives a table's {@link TableStatus} from an observation and the engine's activity (see {@link TableState}). */
public final class TableStatusModel {

    private TableStatusModel() {}

    /**
     * @param pendingSince when the lake was first seen behind at the current checkpoint (null if not behind),
     *     so the checkpoint age of a never-tiered table is measured too
     */
    public static TableStatus derive(
            TableObservation seen, EngineActivity activity, boolean serviceEnabled, @Nullable Instant pendingSince) {
        Instant now = seen.observedAt();
        long pending = seen.pendingRecords();
        Duration latency = pending > 0 && seen.oldestPendingRecordAt() != null
                ? positive(Duration.between(seen.oldestPendingRecordAt(), now))
                : Duration.ZERO;
        Duration checkpointAge = Duration.ZERO;
        if (pending > 0) {
            Instant since = seen.lakeCommittedAt() != null ? seen.lakeCommittedAt() : pendingSince;
            checkpointAge = since == null ? Duration.ZERO : positive(Duration.between(since, now));
        }
        TableState state;
        String reason;
        if (!seen.enabled() || !serviceEnabled) {
            state = TableState.DISABLED;
            reason = !seen.enabled()
                    ? "table.datalake.enabled is false."
                    : "The lakesync service is switched off for the cluster.";
        } else if (activity.consecutiveFailures() > 0 && activity.lastFailureKind() == FailureKind.BLOCKED) {
            state = TableState.BLOCKED;
            reason = activity.lastError();
        } else if (activity.consecutiveFailures() > 0) {
            state = TableState.RETRYING;
            reason = activity.consecutiveFailures() + " failed round(s) in a row, last: " + activity.lastError();
        } else if (seen.lakeSnapshotId() == null) {
            state = TableState.INITIALIZING;
            reason = activity.syncing() ? "First sync round running." : "Waiting for the first sync round.";
        } else if (latency.compareTo(seen.freshness()) > 0) {
            state = TableState.LAGGING;
            reason = "Sync latency " + latency.toSeconds() + " s exceeds freshness " + seen.freshness().toSeconds()
                    + " s with " + pending + " records pending.";
        } else if (activity.syncing()) {
            state = TableState.SYNCING;
            reason = pending + " records pending.";
        } else {
            state = TableState.UP_TO_DATE;
            reason = pending == 0 ? "Everything in Fluss is in the lake." : pending + " records pending, within freshness.";
        }
        return new TableStatus(
                seen.path().getDatabaseName(),
                seen.path().getTableName(),
                seen.tableId(),
                state,
                reason,
                state.action(),
                seen.freshness(),
                latency,
                checkpointAge,
                seen.lakeSnapshotId(),
                seen.lakeCommittedAt(),
                pending,
                seen.buckets(),
                activity,
                now);
    }

    private static Duration positive(Duration duration) {
        return duration.isNegative() ? Duration.ZERO : duration;
    }
}
