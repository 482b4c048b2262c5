package io.lakesync.tiering.capacity;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Measures the CPU time and allocations of one round attempt across the threads that do its work: the round
 * thread between {@link #start()} and {@link #stop()}, and every task the round hands to an executor wrapped
 * with {@link #metered} while it runs. Threads shared by all rounds (the Fluss client's network threads,
 * Paimon's compaction threads) are not counted.
 */
public final class RoundMeter {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** The JVM's heap pools, fixed for its life: listing them builds an MBean name per pool on every call. */
    private static final List<MemoryPoolMXBean> HEAP_POOLS = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP)
            .toList();
    private static final ThreadLocal<RoundMeter> CURRENT = new ThreadLocal<>();

    private final AtomicLong cpuNanos = new AtomicLong();
    private final AtomicLong allocatedBytes = new AtomicLong();
    private long startCpu;
    private long startAllocated;

    private RoundMeter() {}

    /** Starts measuring the calling thread (the round thread); tasks it hands to metered executors count too. */
    public static RoundMeter start() {
        RoundMeter meter = new RoundMeter();
        meter.startCpu = threadCpu();
        meter.startAllocated = threadAllocated();
        CURRENT.set(meter);
        return meter;
    }

    /** Stops measuring the round thread; call on the thread that started. */
    public void stop() {
        CURRENT.remove();
        add(threadCpu() - startCpu, threadAllocated() - startAllocated);
    }

    public long cpuNanos() {
        return cpuNanos.get();
    }

    public long allocatedBytes() {
        return allocatedBytes.get();
    }

    /**
     * The heap this JVM retains: per heap pool, what was in use after its last collection (the live data, not
     * the garbage since), or its current use where the pool was never collected.
     */
    public static long liveHeapBytes() {
        long bytes = 0;
        for (MemoryPoolMXBean pool : HEAP_POOLS) {
            MemoryUsage afterGc = pool.getCollectionUsage();
            bytes += afterGc != null && afterGc.getUsed() > 0 ? afterGc.getUsed() : pool.getUsage().getUsed();
        }
        return bytes;
    }

    /** Whether this JVM can measure thread CPU time; without it every figure is 0. */
    public static boolean supported() {
        return THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
    }

    /**
     * An executor that charges each task's CPU time and allocations to the round that submitted it (the meter
     * of the submitting thread); tasks submitted outside a round are not measured.
     */
    public static ExecutorService metered(ExecutorService threads) {
        return new AbstractExecutorService() {
            @Override
            public void execute(Runnable task) {
                RoundMeter meter = CURRENT.get();
                threads.execute(meter == null ? task : () -> meter.measure(task));
            }

            @Override
            public void shutdown() {
                threads.shutdown();
            }

            @Override
            public List<Runnable> shutdownNow() {
                return threads.shutdownNow();
            }

            @Override
            public boolean isShutdown() {
                return threads.isShutdown();
            }

            @Override
            public boolean isTerminated() {
                return threads.isTerminated();
            }

            @Override
            public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
                return threads.awaitTermination(timeout, unit);
            }
        };
    }

    private void measure(Runnable task) {
        long cpu = threadCpu();
        long allocated = threadAllocated();
        @Nullable RoundMeter outer = CURRENT.get();
        CURRENT.set(this);
        try {
            task.run();
        } finally {
            restore(outer);
            add(threadCpu() - cpu, threadAllocated() - allocated);
        }
    }

    private static void restore(@Nullable RoundMeter outer) {
        if (outer == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(outer);
        }
    }

    private void add(long cpu, long allocated) {
        cpuNanos.addAndGet(Math.max(0, cpu));
        allocatedBytes.addAndGet(Math.max(0, allocated));
    }

    private static long threadCpu() {
        return supported() ? THREADS.getCurrentThreadCpuTime() : 0;
    }

    private static long threadAllocated() {
        return THREADS instanceof com.sun.management.ThreadMXBean sun && sun.isThreadAllocatedMemoryEnabled()
                ? sun.getCurrentThreadAllocatedBytes()
                : 0;
    }
}
