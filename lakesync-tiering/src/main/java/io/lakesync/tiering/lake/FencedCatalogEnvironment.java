package io.lakesync.tiering.lake;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.SnapshotCommit;
import org.apache.paimon.partition.PartitionStatistics;
import org.apache.paimon.table.CatalogEnvironment;
import org.apache.paimon.utils.SnapshotManager;

/**
 * The catalog environment of a table being committed to by one tiering round, whose snapshot commit only lets
 * the round's snapshot land if no other tiering snapshot landed after the fence. One table built on it serves
 * every commit of its {@link LakeSnapshotCommitter}: each commit first states its fence ({@link #fence}).
 *
 * <p>Why it is airtight: Paimon numbers snapshots without gaps and creates {@code snapshot-N} atomically
 * (rename, or the catalog's own commit), so when the round's snapshot is about to become N, every snapshot
 * that landed before it has an id below N. The round's fence saw no tiering snapshot newer than its base up to
 * snapshot {@code fencedAt}; this commit reads {@code fencedAt + 1 .. N - 1} and refuses N if any of them was
 * written by Fluss tiering (another owner of the table). A refused commit is retried by Paimon with a higher id
 * and refused again, so it never lands; {@link #refused()} then tells that the files provably did not land.
 * Snapshots of other writers (compaction, user jobs) do not stop the round, nor do the round's own: a commit
 * that also compacts (deletion-vector tables) lands an APPEND and then a COMPACT snapshot, both carrying the
 * round's offsets path.
 */
final class FencedCatalogEnvironment extends CatalogEnvironment {

    private static final long serialVersionUID = 1L;

    private volatile long fencedAt;
    private volatile String offsetsPath;
    private volatile Long otherTieringSnapshot;
    private volatile boolean passedOn;

    FencedCatalogEnvironment(CatalogEnvironment base) {
        super(
                base.identifier(),
                base.uuid(),
                base.catalogLoader(),
                base.lockFactory(),
                base.lockContext(),
                base.supportsVersionManagement());
    }

    /** Starts the next commit: it may land only if no tiering snapshot but its own lands after {@code fencedAt}. */
    void fence(long fencedAt, String offsetsPath) {
        this.fencedAt = fencedAt;
        this.offsetsPath = offsetsPath;
        this.otherTieringSnapshot = null;
        this.passedOn = false;
    }

    /**
     * The tiering snapshot that made this commit refuse, if it refused and no attempt it passed on may have landed
     * (then nothing of the round landed).
     */
    Long refused() {
        return passedOn ? null : otherTieringSnapshot;
    }

    @Override
    public SnapshotCommit snapshotCommit(SnapshotManager snapshotManager) {
        SnapshotCommit target = super.snapshotCommit(snapshotManager);
        // The fence of the commit that asks for it: Paimon asks once per commit.
        String offsetsPath = this.offsetsPath;
        long fencedAt = this.fencedAt;
        return new SnapshotCommit() {
            @Override
            public boolean commit(Snapshot snapshot, String branch, List<PartitionStatistics> statistics)
                    throws Exception {
                Long other = tieringSnapshotAfter(fencedAt, snapshot.id(), snapshotManager, offsetsPath);
                if (other != null) {
                    otherTieringSnapshot = other;
                    return false;
                }
                boolean landed;
                try {
                    landed = target.commit(snapshot, branch, statistics);
                } catch (Exception | Error e) {
                    passedOn = true;
                    throw e;
                }
                // False: snapshot N existed already, so this attempt provably did not land and Paimon tries N + 1,
                // which the fence judges again.
                passedOn |= landed;
                return landed;
            }

            @Override
            public void close() throws Exception {
                target.close();
            }
        };
    }

    /**
     * The first snapshot after {@code fencedAt} and before {@code newId} that is (or may be, if it cannot be
     * read) a tiering snapshot of another round than the one recording {@code ownOffsetsPath}, or null.
     */
    static Long tieringSnapshotAfter(long fencedAt, long newId, SnapshotManager snapshots, String ownOffsetsPath)
            throws IOException {
        for (long id = fencedAt + 1; id < newId; id++) {
            Snapshot snapshot;
            try {
                snapshot = snapshots.tryGetSnapshot(id);
            } catch (FileNotFoundException gone) {
                // Expired right after it landed: it cannot be proven not to be a tiering snapshot.
                return id;
            }
            if (LakeSnapshotCommitter.COMMIT_USER.equals(snapshot.commitUser())
                    && !TieringSnapshot.of(snapshot).map(own -> own.offsetsPath().equals(ownOffsetsPath)).orElse(false)) {
                return id;
            }
        }
        return null;
    }
}
