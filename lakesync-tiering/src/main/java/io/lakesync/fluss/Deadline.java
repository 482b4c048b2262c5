package io.lakesync.fluss;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A point in time by which a group of remote calls must have answered. The Fluss client has no timeout of its own
 * on most calls (a server that accepts connections but never answers leaves the future pending forever), and
 * Paimon's catalog calls block, so every call outside the data path goes through one of these.
 */
public final class Deadline {

    private static final AtomicInteger THREADS = new AtomicInteger();
    /** Runs blocking calls so that the caller can stop waiting; a call that hangs only holds a daemon thread. */
    private static final ExecutorService BLOCKING_CALLS = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "lakesync-remote-call-" + THREADS.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    /**
     * What one Fluss request of a round may take before the round fails and is retried: long enough for a
     * tablet server busy with a large fetch, short against the coordinator's 2-minute tiering timeout.
     */
    public static final Duration ROUND_REQUEST = Duration.ofSeconds(60);

    private final Duration budget;
    private final long endNanos;

    private Deadline(Duration budget) {
        this.budget = budget;
        this.endNanos = System.nanoTime() + budget.toNanos();
    }

    /** A deadline {@code budget} from now. */
    public static Deadline in(Duration budget) {
        return new Deadline(budget);
    }

    public boolean expired() {
        return System.nanoTime() >= endNanos;
    }

    /** The time left, zero once expired. */
    public Duration remaining() {
        return Duration.ofNanos(Math.max(0, endNanos - System.nanoTime()));
    }

    /**
     * Waits for {@code future} until the deadline.
     *
     * @throws TimeoutException naming {@code what} and the budget when it did not complete in time (the future is
     *     cancelled)
     * @throws ExecutionException as {@link Future#get()}
     */
    public <T> T await(CompletableFuture<T> future, String what) throws ExecutionException, InterruptedException, TimeoutException {
        try {
            return future.get(Math.max(0, endNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw timedOut(what);
        }
    }

    /** Runs a blocking {@code call} and waits for it until the deadline; see {@link #await}. */
    public <T> T call(Callable<T> call, String what) throws Exception {
        Future<T> future = BLOCKING_CALLS.submit(call);
        try {
            return future.get(Math.max(0, endNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw timedOut(what);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /** The daemon threads blocking calls run on. */
    static ExecutorService blockingCalls() {
        return BLOCKING_CALLS;
    }

    private TimeoutException timedOut(String what) {
        return new TimeoutException(what + " did not answer within " + budget.toMillis() + " ms");
    }
}
