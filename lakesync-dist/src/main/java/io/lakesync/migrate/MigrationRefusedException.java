package io.lakesync.migrate;

/** The migration will not start, for the reason in the message (one line, naming what to change); nothing changed. */
public final class MigrationRefusedException extends Exception {
    public MigrationRefusedException(String message) {
        super(message);
    }
}
