package io.lakesync.tiering.round;

/**
 * The Paimon commit failed in a way that leaves open whether its snapshot landed. Nothing was cleaned up;
 * the next round registers the snapshot if it exists and otherwise re-reads the same range.
 */
public class UnknownCommitOutcomeException extends Exception {
    public UnknownCommitOutcomeException(String message, Throwable cause) {
        super(message, cause);
    }
}
