package io.lakesync.cli;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

/**
 * Turns Ctrl-C (SIGINT) and SIGTERM into an orderly stop: the first one wakes {@link #await()}, so the main
 * thread closes everything in order and exits 0; a second one while stopping halts the JVM at once, and so does
 * a stop still running after its bound (an unreachable state database or Fluss cluster can make each step wait
 * for its own timeout), with one line naming the step it was in.
 *
 * <p>Handled here rather than in a shutdown hook because shutdown hooks run in no fixed order: Log4j's own hook
 * could stop logging while the stack is still shutting down.
 */
final class StopSignal {

    private final CountDownLatch requested = new CountDownLatch(1);
    private final Thread main;
    private final Duration bound;

    private StopSignal(Thread main, Duration bound) {
        this.main = main;
        this.bound = bound;
    }

    /** Handles the stop signals for the calling thread, which then has {@code bound} to stop once one arrives. */
    static StopSignal install(Duration bound) {
        StopSignal stop = new StopSignal(Thread.currentThread(), bound);
        for (String name : List.of("INT", "TERM")) {
            Signal.handle(new Signal(name), stop::onSignal);
        }
        return stop;
    }

    private void onSignal(Signal signal) {
        if (requested.getCount() == 0) {
            System.err.println("lakesync: SIG" + signal.getName() + " again, stopping at once");
            Runtime.getRuntime().halt(128 + signal.getNumber());
        }
        requested.countDown();
        Thread watchdog = new Thread(this::haltAfterBound, "lakesync-stop-bound");
        watchdog.setDaemon(true); // a stop within the bound exits the JVM, and this thread with it
        watchdog.start();
    }

    private void haltAfterBound() {
        try {
            Thread.sleep(bound.toMillis()); // a deadline, not a synchronisation: the JVM exits first if all is well
        } catch (InterruptedException e) {
            return;
        }
        System.err.println("lakesync: not stopped within " + bound.toSeconds() + " s, still in " + stepOf(main)
                + "; exiting without it (the log says what could not be flushed or handed back)");
        Runtime.getRuntime().halt(LakeSyncCli.STOP_TIMED_OUT);
    }

    /** The innermost lakesync method {@code thread} runs, e.g. {@code UsageMeter.close}. */
    static String stepOf(Thread thread) {
        return Arrays.stream(thread.getStackTrace())
                .filter(frame -> frame.getClassName().startsWith("io.lakesync."))
                .findFirst()
                .map(frame -> frame.getClassName().substring(frame.getClassName().lastIndexOf('.') + 1) + "."
                        + frame.getMethodName())
                .orElse("the JVM's shutdown");
    }

    /** Blocks until a stop signal arrives. */
    void await() throws InterruptedException {
        requested.await();
    }
}
