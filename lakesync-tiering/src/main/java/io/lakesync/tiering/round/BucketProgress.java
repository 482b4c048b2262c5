package io.lakesync.tiering.round;

import javax.annotation.Nullable;

/**
 * How far a round got in one bucket: the exclusive end offset now safely in the written data files, the
 * largest record timestamp among them, and how many records were written.
 */
public record BucketProgress(BucketRange range, @Nullable Long tieredEndOffset, long maxTimestamp, long records) {

    /** Whether this bucket moved forward in the round, and so belongs in the lake snapshot's offsets. */
    public boolean advanced() {
        return tieredEndOffset != null;
    }
}
