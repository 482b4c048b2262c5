package io.lakesync.tiering.lake;

import org.apache.paimon.table.FileStoreTable;

/**
 * The kind of a lake table, as far as the work after a round depends on it: a round learns it from the table it
 * loaded and hands it on, so that maintenance needs no load of its own on the round's thread.
 */
public enum LakeTableKind {
    /** An append table (a Fluss log table): no sorted runs to bound. */
    APPEND,
    /** A primary-key table: each round adds a sorted run to the buckets it wrote, until compacted. */
    PRIMARY_KEY,
    /** A primary-key table its rounds compact ({@link LakeReadability#compactsInRound}). */
    COMPACTED_BY_ROUNDS;

    public static LakeTableKind of(FileStoreTable table) {
        if (table.primaryKeys().isEmpty()) {
            return APPEND;
        }
        return LakeReadability.compactsInRound(table) ? COMPACTED_BY_ROUNDS : PRIMARY_KEY;
    }
}
