package io.lakesync.cli;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

/**
 * Turns Ctrl-C (SIGINT) and SIGTERM into an orderly stop: the first one wakes {@link #await()}, so the main
 * thread closes everything in order and exits 0; a second one while stopping halts the JVM at once.
 *
 * <p>Handled here rather than in a shutdown hook because shutdown hooks run in no fixed order: Log4j's own hook
 * could stop logging while the stack is still shutting down.
 */
final class StopSignal {

    private final CountDownLatch requested = new CountDownLatch(1);

    private StopSignal() {}

    static StopSignal install() {
        StopSignal stop = new StopSignal();
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
    }

    /** Blocks until a stop signal arrives. */
    void await() throws InterruptedException {
        requested.await();
    }
}
