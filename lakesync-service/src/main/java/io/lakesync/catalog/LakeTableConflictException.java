package io.lakesync.catalog;

/** A lake-side reason a table cannot be enabled or a lake table cannot be deleted; the message says why. */
public class LakeTableConflictException extends Exception {
    public LakeTableConflictException(String message) {
        super(message);
    }
}
