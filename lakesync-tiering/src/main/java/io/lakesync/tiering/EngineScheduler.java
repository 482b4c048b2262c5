package io.lakesync.tiering;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

/**
 * Where the engine runs rounds and waits between them: worker threads for rounds, a timer for retries,
 * rechecks and continuous-mode pauses. Tests drive it by hand with a manual clock.
 */
interface EngineScheduler {

    /** Runs a round attempt on a worker. */
    void runRound(Runnable attempt) throws RejectedExecutionException;

    /** Runs {@code task} once {@code delay} has passed, unless cancelled first. */
    Cancellable schedule(Runnable task, Duration delay) throws RejectedExecutionException;

    /** Drops pending timers and waits up to {@code grace} for running rounds. */
    void shutdown(Duration grace) throws InterruptedException;

    /** A scheduled task that may still be called off. */
    @FunctionalInterface
    interface Cancellable {
        void cancel();
    }
}
