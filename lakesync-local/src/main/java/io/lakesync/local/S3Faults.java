package io.lakesync.local;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.jclouds.blobstore.BlobStore;

/**
 * The fault switch of an {@link S3Server}, off unless a fault campaign turns it on: while {@linkplain #fail()
 * failing}, every request the server handles ends in a 500 Internal Server Error; while {@linkplain #slow slow},
 * every request waits first. Requests started before a switch finish as they began.
 */
public final class S3Faults {

    /** The error a failing request ends in (S3Proxy answers any exception it does not know with a 500). */
    static final class InjectedFault extends RuntimeException {
        InjectedFault() {
            super("S3 fault injected by the S3 server's fault switch", null, false, false);
        }
    }

    /** How a request is held up; tests replace the sleep. */
    interface Pause {
        void pause(Duration duration) throws InterruptedException;
    }

    private final Pause pause;
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong slowed = new AtomicLong();
    private volatile boolean failing;
    private volatile Duration delay = Duration.ZERO;

    S3Faults() {
        this(duration -> Thread.sleep(duration.toMillis()));
    }

    S3Faults(Pause pause) {
        this.pause = pause;
    }

    /** Every request fails from now on, until {@link #heal()}. */
    public void fail() {
        failing = true;
    }

    /** Every request waits {@code delay} first from now on, until {@link #heal()}. */
    public void slow(Duration delay) {
        this.delay = delay;
    }

    /** Requests are served normally again. */
    public void heal() {
        failing = false;
        delay = Duration.ZERO;
    }

    /** Requests failed by the switch so far. */
    public long failedRequests() {
        return failed.get();
    }

    /** Requests held up by the switch so far. */
    public long slowedRequests() {
        return slowed.get();
    }

    /** {@code store} behind this switch: each call passes it first. */
    BlobStore guard(BlobStore store) {
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getDeclaringClass() != Object.class) {
                beforeRequest();
            }
            try {
                return method.invoke(store, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (BlobStore) Proxy.newProxyInstance(BlobStore.class.getClassLoader(), new Class<?>[] {BlobStore.class}, handler);
    }

    private void beforeRequest() throws InterruptedException {
        Duration wait = delay;
        if (!wait.isZero()) {
            slowed.incrementAndGet();
            pause.pause(wait);
        }
        if (failing) {
            failed.incrementAndGet();
            throw new InjectedFault();
        }
    }
}
