package io.lakesync.tiering.lake;

/**
 * What a lake commit did, in the four outcomes a commit can have. Only a {@link RetryableFailure} or a
 * {@link Refused} commit proves the snapshot did not land, so only then may the written data files be deleted;
 * after an {@link Unknown} outcome nothing is cleaned up and the next round finds out (a Paimon snapshot the
 * coordinator does not know yet is registered, never written twice).
 */
public sealed interface LakeCommitOutcome {

    /** The snapshot landed with this id. */
    record Committed(long snapshotId) implements LakeCommitOutcome {}

    /** The commit failed and provably left no snapshot. */
    record RetryableFailure(Exception cause) implements LakeCommitOutcome {}

    /**
     * The commit was refused because tiering snapshot {@code otherSnapshotId} landed after the round's fence:
     * another owner tiered the table meanwhile. Nothing landed.
     */
    record Refused(long otherSnapshotId) implements LakeCommitOutcome {}

    /** The commit failed and whether the snapshot landed could not be established. */
    record Unknown(Exception cause) implements LakeCommitOutcome {}
}
