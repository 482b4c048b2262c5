package io.lakesync.tiering.retained;

/** A lake table was not adopted; the message says why and what to do instead. */
public class AdoptionRefusedException extends Exception {
    public AdoptionRefusedException(String message) {
        super(message);
    }
}
