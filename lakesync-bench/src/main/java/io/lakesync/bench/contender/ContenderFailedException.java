package io.lakesync.bench.contender;

/** A contender child process failed or exited before doing what the driver waited for. */
public class ContenderFailedException extends Exception {
    public ContenderFailedException(String message) {
        super(message);
    }
}
