package io.lakesync.bench.contender;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.atomic.AtomicLong;

/** Samples used heap every few milliseconds in a daemon thread and keeps the peak. */
final class HeapSampler {

    private static final long PERIOD_MILLIS = 20;

    private final AtomicLong peak = new AtomicLong();

    static HeapSampler start() {
        HeapSampler sampler = new HeapSampler();
        Thread thread = new Thread(sampler::run, "bench-heap-sampler");
        thread.setDaemon(true);
        thread.start();
        return sampler;
    }

    long peakBytes() {
        sample(ManagementFactory.getMemoryMXBean());
        return peak.get();
    }

    private void run() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        while (true) {
            sample(memory);
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void sample(MemoryMXBean memory) {
        peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
    }
}
