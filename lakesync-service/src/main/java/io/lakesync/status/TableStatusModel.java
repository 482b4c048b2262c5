package io.lakesync.status;

import io.lakesync.tiering.FailureKind;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.fluss.metadata.TablePath;

/** Derives a table's {@link TableStatus} from an observation and the engine's activity (see {@link TableState}). */
public final class TableStatusModel {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private TableStatusModel() {}

    /**
     * @param pendingSince when the lake was first seen behind at the current checkpoint (null if not behind),
     *     so the checkpoint age of a never-tiered table is measured too
     */
    public static TableStatus derive(
            TableObservation seen, EngineActivity activity, boolean serviceEnabled, @Nullable Instant pendingSince) {
        Instant now = seen.observedAt();
        long pending = seen.pendingRecords();
        Duration checkpointAge = Duration.ZERO;
        if (pending > 0) {
            Instant since = seen.lakeCommittedAt() != null ? seen.lakeCommittedAt() : pendingSince;
            checkpointAge = since == null ? Duration.ZERO : positive(Duration.between(since, now));
        }
        // Records pending whose oldest one's time could not be read (gone to remote storage, the probe gave up):
        // the checkpoint's age stands in for the latency, and the table is not claimed up to date.
        boolean latencyUnknown = pending > 0 && seen.oldestPendingRecordAt() == null;
        Duration latency = pending == 0 ? Duration.ZERO
                : latencyUnknown ? checkpointAge
                : positive(Duration.between(seen.oldestPendingRecordAt(), now));
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
            reason = (latencyUnknown ? "Time since the lake checkpoint " : "Sync latency ") + latency.toSeconds()
                    + " s exceeds freshness " + seen.freshness().toSeconds() + " s with " + pending
                    + " records pending.";
        } else if (activity.syncing()) {
            state = TableState.SYNCING;
            reason = pending + " records pending.";
        } else if (latencyUnknown) {
            state = TableState.UNKNOWN;
            reason = pending + " records pending, and the time of the oldest one cannot be read, so the sync latency "
                    + "is unknown; the lake checkpoint is " + latency.toSeconds() + " s old.";
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
                now,
                false,
                false);
    }

    /**
     * The status of a table that could not be observed at {@code now}: the last known figures marked stale, the
     * error as the reason, and the state as {@link TableState} draws it (kept until {@code unknownAfter} has passed
     * since the last observation, UNKNOWN after that or at once for a last state that claims the table is fine).
     *
     * @param last the status from the table's last successful observation, or null if there was none
     * @param failingSince when the observations of this table started failing
     */
    public static TableStatus unobserved(
            TablePath path,
            @Nullable TableStatus last,
            EngineActivity activity,
            String error,
            Instant failingSince,
            Instant now,
            Duration unknownAfter) {
        String failure = "cannot observe the table since " + TIME.format(failingSince) + ": " + error;
        if (last == null) {
            return new TableStatus(path.getDatabaseName(), path.getTableName(), -1, TableState.UNKNOWN,
                    capitalized(failure) + " Never observed yet.", TableState.UNKNOWN.action(), Duration.ZERO,
                    Duration.ZERO, Duration.ZERO, null, null, 0, List.of(), activity, failingSince, true, false);
        }
        boolean claimsFine = last.state() == TableState.UP_TO_DATE || last.state() == TableState.SYNCING;
        boolean tooOld = Duration.between(last.observedAt(), now).compareTo(unknownAfter) > 0;
        TableState state;
        String reason;
        if (claimsFine || tooOld) {
            state = TableState.UNKNOWN;
            reason = capitalized(failure) + " Last observed " + TIME.format(last.observedAt()) + ".";
        } else {
            state = last.state();
            reason = capitalized(failure) + " Before: " + last.reason();
        }
        return new TableStatus(last.database(), last.table(), last.tableId(), state, reason, state.action(),
                last.freshness(), last.syncLatency(), last.checkpointAge(), last.lakeSnapshotId(),
                last.lakeCommittedAt(), last.pendingRecords(), last.buckets(), activity, last.observedAt(), true, false);
    }

    private static String capitalized(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    private static Duration positive(Duration duration) {
        return duration.isNegative() ? Duration.ZERO : duration;
    }
}
