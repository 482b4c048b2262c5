package io.lakesync.verify;

import java.util.List;

/**
 * One bucket of a verified table: where the lake is (the offset its newest tiering snapshot registered), where
 * Fluss is, and what was found wrong in it (empty when nothing).
 *
 * @param bucket the bucket as {@code 3} or {@code partition=2024/3}
 * @param lakeOffset the lake's exclusive end offset, -1 when the bucket was never tiered
 * @param flussEndOffset Fluss's end offset (high watermark)
 * @param lakeRows rows of this bucket in the lake snapshot
 */
public record BucketReport(String bucket, long lakeOffset, long flussEndOffset, long lakeRows, List<String> problems) {

    public boolean ok() {
        return problems.isEmpty();
    }

    /** Records in Fluss the lake does not hold yet. */
    public long pending() {
        return Math.max(0, flussEndOffset - Math.max(0, lakeOffset));
    }
}
