package io.lakesync.tiering.round;

import javax.annotation.Nullable;
import org.apache.fluss.metadata.TableBucket;

/**
 * What one round tiers of one bucket: optionally a KV snapshot to bulk-load first (a primary-key bucket never
 * tiered before), then the log from {@code logStartOffset} up to {@code endOffset} (exclusive), the bucket's
 * high watermark when the round was planned.
 *
 * @param logStartOffset the first offset to read, or {@link #EARLIEST} for the start of the log
 * @param kvSnapshotId KV snapshot to load before the log, or null; its log offset is {@code logStartOffset}
 */
public record BucketRange(
        TableBucket bucket,
        @Nullable String partitionName,
        @Nullable Long kvSnapshotId,
        long logStartOffset,
        long endOffset) {

    /** Fluss's "from the beginning of the log" offset. */
    public static final long EARLIEST = -2L;

    public boolean hasLog() {
        return logStartOffset == EARLIEST || logStartOffset < endOffset;
    }
}
