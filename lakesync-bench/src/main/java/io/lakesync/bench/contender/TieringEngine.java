package io.lakesync.bench.contender;

import java.util.Map;
import java.util.Optional;

/** A tiering service under test, running in a contender child process. */
interface TieringEngine extends AutoCloseable {

    /** Starts it; returns once it is up and asking the coordinator for tables. */
    void start() throws Exception;

    /** Why it stopped working for good, if it did. */
    Optional<String> failure();

    /** Figures of its own it reports when stopped, next to the peak heap. */
    default Map<String, Object> stats() {
        return Map.of();
    }
}
