package io.lakesync.tiering.lake;

import org.apache.paimon.table.FileStoreTable;

/**
 * Whether a Paimon snapshot of a lake table shows every row it holds to a reader, so the coordinator may
 * register it as the table's <em>readable</em> lake snapshot (the one union reads plan on) as well as its
 * tiered one.
 *
 * <p>A primary-key table with deletion vectors ({@code deletion-vectors.enabled}) is read without merging:
 * Paimon's readers skip its level-0 files and apply deletion vectors to the rest, so rows still in level 0
 * are invisible. Rounds therefore write such a table with compaction on and wait for it before committing
 * ({@link #compactsInRound}); Paimon's deletion-vector mode always lifts level-0 files up, so one commit lands
 * an APPEND snapshot and a COMPACT snapshot, both carrying the round's {@code fluss-offsets}, and the COMPACT
 * one has no level-0 file: readable = tiered, with the same offsets. A snapshot that still has level-0 files
 * (the round's compaction lost a conflict, or a crash fell between the two snapshots) is registered as tiered
 * only, and the coordinator keeps the previous readable one until a later snapshot is free of level 0.
 *
 * <p>Log tables (deletion vectors or not) and primary-key tables without them are read with all their files
 * and are always readable.
 */
public final class LakeReadability {

    private LakeReadability() {}

    /** Whether rounds must compact the table's level 0 before committing for the snapshot to be readable. */
    public static boolean compactsInRound(FileStoreTable table) {
        return table.coreOptions().deletionVectorsEnabled() && !table.primaryKeys().isEmpty();
    }

    /** Whether snapshot {@code snapshotId} of {@code table} shows all its rows to readers. */
    public static boolean readable(FileStoreTable table, long snapshotId) {
        if (!compactsInRound(table)) {
            return true;
        }
        return table.store().newScan().withSnapshot(snapshotId).withLevelFilter(level -> level == 0).plan()
                .files().isEmpty();
    }
}
