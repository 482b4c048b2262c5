package io.lakesync.tiering.round;

/**
 * The round no longer owns its table (tiering epoch fenced, table dropped or re-created, coordinator
 * changed, or another writer committed in between), so it must not commit.
 */
public class FencedRoundException extends Exception {
    public FencedRoundException(String message) {
        super(message);
    }

    public FencedRoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
