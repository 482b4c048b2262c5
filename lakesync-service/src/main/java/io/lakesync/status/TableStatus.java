package io.lakesync.status;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.annotation.Nullable;

/**
 * The status of one table as the API, the CLI, metrics and alerts show it.
 *
 * @param syncLatency age of the oldest record in Fluss that is not yet readable in the lake; zero when
 *     nothing is pending, so an idle table never alarms
 * @param checkpointAge how long the lake checkpoint has not advanced while data is pending; zero otherwise
 * @param observedAt when the figures were observed: the last successful observation
 * @param stale whether the last observation attempts failed, so the figures are older than the last refresh
 * @param heldBackByQuota whether the table's round waits for a compute unit (a CU quota is used up)
 */
public record TableStatus(
        String database,
        String table,
        long tableId,
        TableState state,
        String reason,
        String action,
        Duration freshness,
        Duration syncLatency,
        Duration checkpointAge,
        @Nullable Long lakeSnapshotId,
        @Nullable Instant lakeCommittedAt,
        long pendingRecords,
        List<BucketCheckpoint> buckets,
        EngineActivity activity,
        Instant observedAt,
        boolean stale,
        boolean heldBackByQuota) {

    /**
     * This status with a quota hold first in its reason, for a table whose round waits for a compute unit; a
     * table that is disabled, blocked, retrying or unknown keeps the reason that matters more.
     */
    public TableStatus heldBack(String why) {
        boolean matters = state == TableState.DISABLED || state == TableState.BLOCKED || state == TableState.RETRYING
                || state == TableState.UNKNOWN;
        return matters ? this : new TableStatus(database, table, tableId, state, why + " " + reason, action, freshness,
                syncLatency, checkpointAge, lakeSnapshotId, lakeCommittedAt, pendingRecords, buckets, activity,
                observedAt, stale, true);
    }

    /** This status with {@code note} after its reason, for what concerns every table alike. */
    public TableStatus withNote(String note) {
        return new TableStatus(database, table, tableId, state, reason + " " + note, action, freshness, syncLatency,
                checkpointAge, lakeSnapshotId, lakeCommittedAt, pendingRecords, buckets, activity, observedAt, stale,
                heldBackByQuota);
    }

    public String name() {
        return database + "." + table;
    }
}
