package io.lakesync.tiering.maintenance;

import java.time.Duration;
import java.time.Instant;
import javax.annotation.Nullable;
import org.apache.fluss.metadata.TablePath;

/**
 * What the last maintenance pass of a table did and how the lake table looks after it, with the table's
 * running totals since this instance started maintaining it.
 *
 * @param compactedBuckets buckets compacted by this pass
 * @param expiredSnapshots snapshots expired by this pass
 * @param orphanFilesDeleted unreferenced files (aborted rounds, failed commits) deleted by this pass
 * @param bytesReclaimed bytes of files this pass deleted (replaced by compaction and expired, orphans)
 * @param bytesReclaimedTotal the same, summed over every pass of this instance
 * @param lastCompaction when a pass last compacted a bucket of the table, null if never
 * @param lastExpiry when a pass last expired a snapshot of the table, null if never
 * @param problem why this pass failed or was skipped, null when it ran through
 */
public record MaintenanceReport(
        TablePath tablePath,
        Instant finishedAt,
        Duration duration,
        LakeFigures figures,
        int compactedBuckets,
        int expiredSnapshots,
        long orphanFilesDeleted,
        long bytesReclaimed,
        long bytesReclaimedTotal,
        @Nullable Instant lastCompaction,
        @Nullable Instant lastExpiry,
        @Nullable String problem) {}
