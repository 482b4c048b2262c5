package io.lakesync.status;

import javax.annotation.Nullable;

/**
 * How far the lake is in one bucket: the exclusive end offset it holds ({@code -1} when the bucket was
 * never tiered) against the bucket's current end offset in Fluss.
 */
public record BucketCheckpoint(@Nullable String partition, int bucket, long tieredOffset, long endOffset) {

    public long pendingRecords() {
        return Math.max(0, endOffset - Math.max(tieredOffset, 0));
    }
}
