package io.lakesync.tiering.retained;

/**
 * The coordinator's checkpoint of a table could not be read and lakesync repaired it. The round that found it
 * ends with this (a transient failure, so it shows in the table's status) and the next round tiers from the
 * repaired checkpoint.
 */
public class CheckpointRepairedException extends Exception {
    public CheckpointRepairedException(String message) {
        super(message);
    }
}
