package io.lakesync.migrate;

/** The migration will not start, or stopped, for the reason in the message; nothing was changed after it. */
public final class MigrationRefusedException extends Exception {
    public MigrationRefusedException(String message) {
        super(message);
    }
}
