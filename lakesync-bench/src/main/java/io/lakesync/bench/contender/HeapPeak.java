package io.lakesync.bench.contender;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The contender's peak of used heap, from the JVM's own figures instead of polling: the heap every garbage
 * collection found before it ran (the top of each saw tooth) and the heap in use when asked. A thread that
 * sampled the heap every 20 ms cost a contender about 2% of a core in the timed window and missed the tops between
 * two samples.
 */
final class HeapPeak {

    private final AtomicLong peak = new AtomicLong();
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP)
            .map(MemoryPoolMXBean::getName)
            .collect(Collectors.toSet());

    static HeapPeak start() {
        HeapPeak heap = new HeapPeak();
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener((notification, handback) -> heap.collected(notification), null, null);
            }
        }
        return heap;
    }

    long peakBytes() {
        peak.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
        return peak.get();
    }

    private void collected(Notification notification) {
        if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            Map<String, MemoryUsage> before = GarbageCollectionNotificationInfo
                    .from((CompositeData) notification.getUserData())
                    .getGcInfo()
                    .getMemoryUsageBeforeGc();
            peak.accumulateAndGet(usedHeap(before), Math::max);
        }
    }

    long usedHeap(Map<String, MemoryUsage> pools) {
        return pools.entrySet().stream()
                .filter(pool -> heapPools.contains(pool.getKey()))
                .mapToLong(pool -> pool.getValue().getUsed())
                .sum();
    }
}
