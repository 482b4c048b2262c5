package io.lakesync.tiering.round;

/**
 * Records to tier were written in a schema newer than the one the round reads with (an ALTER TABLE landed
 * while the round planned): reading them in the older schema would drop their new columns' values, so the
 * round stops before committing anything and is read again in the new schema.
 */
public final class NewerSchemaException extends Exception {

    public NewerSchemaException(String message) {
        super(message);
    }
}
