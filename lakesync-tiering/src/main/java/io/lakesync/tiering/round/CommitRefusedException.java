package io.lakesync.tiering.round;

/**
 * The round passed its fence, but by the time it committed another tiering snapshot had landed (its owner
 * stalled past the coordinator's timeout and the table went to another instance): Paimon's conditional commit
 * refused it, so nothing of the round landed and its files were deleted.
 */
public class CommitRefusedException extends FencedRoundException {
    public CommitRefusedException(String message) {
        super(message);
    }
}
