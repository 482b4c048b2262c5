package io.lakesync.bench.measure;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Sync lag of a set of buckets from periodic samples of each bucket's high watermark and lake offset: the lag
 * of a bucket is the age of its oldest record not yet in the lake, dated by the first sample in which the high
 * watermark showed it (so it is accurate to one sample interval). A sample's lag is the largest bucket lag.
 */
public final class LagTracker {

    /** Percentiles of the sampled lags, in seconds. */
    public record LagStats(int samples, double p50Seconds, double p99Seconds, double maxSeconds) {}

    private record Seen(long highWatermark, long firstSeenMillis) {}

    private final Map<Object, Deque<Seen>> history = new HashMap<>();
    private final Map<Object, Long> lagMillis = new HashMap<>();
    private final List<Long> samples = new ArrayList<>();

    /** Records bucket {@code bucket}'s offsets as seen at {@code nowMillis}. */
    public void observe(Object bucket, long nowMillis, long highWatermark, long lakeOffset) {
        Deque<Seen> seen = history.computeIfAbsent(bucket, b -> new ArrayDeque<>());
        if (seen.isEmpty() || seen.peekLast().highWatermark() < highWatermark) {
            seen.addLast(new Seen(highWatermark, nowMillis));
        }
        // Entries whose records are all in the lake say nothing about the oldest pending record any more.
        while (seen.size() > 1 && seen.peekFirst().highWatermark() <= lakeOffset) {
            seen.removeFirst();
        }
        // After pruning, the head is the earliest sample whose watermark passed the oldest pending record.
        long lag = lakeOffset < highWatermark ? nowMillis - seen.peekFirst().firstSeenMillis() : 0;
        lagMillis.put(bucket, lag);
    }

    /** Closes one counted sampling round: its lag is the largest bucket lag observed in it. */
    public long endSample() {
        return endSample(true);
    }

    /** Closes one sampling round; one that is not {@code counted} only keeps the offsets' history going. */
    public long endSample(boolean counted) {
        long max = lagMillis.values().stream().mapToLong(Long::longValue).max().orElse(0);
        if (counted) {
            samples.add(max);
        }
        lagMillis.clear();
        return max;
    }

    public LagStats stats() {
        if (samples.isEmpty()) {
            return new LagStats(0, 0, 0, 0);
        }
        List<Long> sorted = new ArrayList<>(samples);
        Collections.sort(sorted);
        return new LagStats(
                sorted.size(),
                percentile(sorted, 0.50) / 1000.0,
                percentile(sorted, 0.99) / 1000.0,
                sorted.get(sorted.size() - 1) / 1000.0);
    }

    /** Nearest-rank percentile of an ascending list. */
    public static long percentile(List<Long> ascending, double p) {
        int rank = (int) Math.ceil(p * ascending.size());
        return ascending.get(Math.max(0, Math.min(ascending.size() - 1, rank - 1)));
    }
}
