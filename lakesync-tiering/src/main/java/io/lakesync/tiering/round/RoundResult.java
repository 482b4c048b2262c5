package io.lakesync.tiering.round;

import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.tiering.lake.LakeTableKind;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.annotation.Nullable;

/**
 * A round that ended without error: what it tiered and the lake snapshot it committed (null when there was
 * nothing new to tier). {@code forceFinished} means it hit the table's freshness before reaching the end
 * offsets it planned, so the coordinator queues the table again at once. Files and bytes count the data
 * and changelog files the round wrote; {@code phases} where its time went; {@code lakeKind} the kind of lake
 * table it loaded.
 */
public record RoundResult(
        TableAssignment assignment,
        Instant startedAt,
        Duration duration,
        @Nullable Long lakeSnapshotId,
        boolean forceFinished,
        List<BucketProgress> buckets,
        int filesWritten,
        long bytesWritten,
        RoundPhases phases,
        LakeTableKind lakeKind) {

    /** A round that found nothing new to tier. */
    static RoundResult empty(
            TableAssignment assignment, Instant startedAt, Duration duration, RoundPhases phases, LakeTableKind lakeKind) {
        return new RoundResult(assignment, startedAt, duration, null, false, List.of(), 0, 0, phases, lakeKind);
    }

    public long records() {
        return buckets.stream().mapToLong(BucketProgress::records).sum();
    }

    public boolean committed() {
        return lakeSnapshotId != null;
    }
}
