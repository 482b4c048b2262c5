package io.lakesync.tiering.round;

import javax.annotation.Nullable;

/**
 * How far a round got in one bucket: the exclusive end offset now safely in the written data files, the
 * largest record timestamp among them, how many records were written, and whether the columnar reader read
 * the whole range (false when the row reader read all or part of it), and whether the columnar writer wrote
 * it (false when Paimon's row writer did).
 */
public record BucketProgress(
        BucketRange range,
        @Nullable Long tieredEndOffset,
        long maxTimestamp,
        long records,
        boolean columnar,
        boolean columnarWrite) {

    public BucketProgress(BucketRange range, @Nullable Long tieredEndOffset, long maxTimestamp, long records) {
        this(range, tieredEndOffset, maxTimestamp, records, false, false);
    }

    /** Whether this bucket moved forward in the round, and so belongs in the lake snapshot's offsets. */
    public boolean advanced() {
        return tieredEndOffset != null;
    }
}
