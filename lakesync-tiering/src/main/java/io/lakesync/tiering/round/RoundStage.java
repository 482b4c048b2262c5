package io.lakesync.tiering.round;

/** Points in a round at which {@link RoundHooks} are called, in the order a round passes them. */
public enum RoundStage {
    /** The round read the table's info (its schema among it); nothing planned yet. */
    TABLE_READ,
    /** The bucket ranges are known; nothing written yet. */
    PLANNED,
    /** Data files are written; nothing committed yet. */
    DATA_WRITTEN,
    /** The fence passed: this instance still owns the table; the offsets file and the commits are next. */
    FENCED,
    /** The Paimon snapshot landed; the coordinator does not know it yet. */
    LAKE_COMMITTED,
    /** The coordinator registered the lake snapshot; the round is complete. */
    COORDINATOR_COMMITTED
}
