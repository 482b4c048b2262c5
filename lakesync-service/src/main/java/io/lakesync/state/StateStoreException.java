package io.lakesync.state;

/** The state database could not be reached or refused an operation; the message names the database. */
public class StateStoreException extends RuntimeException {

    public StateStoreException(String message, Throwable cause) {
        super(message, cause);
    }

    public StateStoreException(String message) {
        super(message);
    }
}
