package io.lakesync.migrate;

/**
 * The migration stopped part-way for the reason in the message, after it stopped (or began to stop) the Flink
 * jobs: running it again, once the reason is dealt with, finishes it.
 */
public final class MigrationUnfinishedException extends Exception {
    public MigrationUnfinishedException(String message) {
        super(message);
    }
}
