package io.lakesync.local;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Waits on a condition with a deadline, the only way tests here synchronise with background work. */
public final class Eventually {

    private Eventually() {}

    /** Polls {@code assertion} until it passes or {@code timeout} runs out, then rethrows its last failure. */
    public static void eventually(Duration timeout, ThrowingRunnable assertion) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                assertion.run();
                return;
            } catch (AssertionError | Exception e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            Thread.sleep(100);
        }
    }

    /** Polls {@code supplier} until it returns non-null, or fails after {@code timeout} naming {@code what}. */
    public static <T> T waitFor(Duration timeout, String what, Callable<T> supplier) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            try {
                T value = supplier.call();
                if (value != null) {
                    return value;
                }
            } catch (Exception e) {
                last = e;
            }
            Thread.sleep(100);
        }
        AssertionError error = new AssertionError("Timed out after " + timeout + " waiting for " + what);
        if (last != null) {
            error.initCause(last);
        }
        throw error;
    }

    /** A runnable that may throw, for assertions. */
    @FunctionalInterface
    public interface ThrowingRunnable {
        void run() throws Exception;
    }
}
