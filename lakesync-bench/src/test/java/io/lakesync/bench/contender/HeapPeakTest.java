package io.lakesync.bench.contender;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeapPeakTest {

    private static final int ARRAY_BYTES = 96 << 20;

    @Test
    void theHeapAGarbageCollectionFoundCountsAfterItWasCollected() {
        HeapPeak heap = HeapPeak.start();
        byte[] garbage = new byte[ARRAY_BYTES];
        garbage[garbage.length - 1] = 1;
        garbage = null;
        System.gc();

        // The collection's notification comes on the JMX notification thread.
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (heap.peakBytes() < ARRAY_BYTES && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(heap.peakBytes()).isGreaterThanOrEqualTo(ARRAY_BYTES);
        assertThat(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed())
                .as("the array is gone from the heap").isLessThan(heap.peakBytes());
    }

    @Test
    void onlyHeapPoolsCount() {
        String heapPool = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP)
                .map(MemoryPoolMXBean::getName)
                .findFirst()
                .orElseThrow();

        long used = HeapPeak.start().usedHeap(Map.of(heapPool, usage(5), "Metaspace", usage(100)));

        assertThat(used).isEqualTo(5);
    }

    private static MemoryUsage usage(long used) {
        return new MemoryUsage(0, used, used, used);
    }
}
