package io.lakesync.bench.campaign;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import org.apache.fluss.metadata.TableBucket;

/**
 * What Fluss held when: the end offsets of every bucket, sampled over time, so that the lake's offsets at a
 * moment say how far behind it really was, table by table: since the oldest sample that held a row the lake
 * still lacks. Samples older than the history's span are dropped.
 */
final class WrittenHistory {

    private record Sample(long nanos, Map<TableBucket, Long> ends) {}

    private final Deque<Sample> samples = new ArrayDeque<>();
    private final Duration span;

    WrittenHistory(Duration span) {
        this.span = span;
    }

    synchronized void add(long nanos, Map<TableBucket, Long> ends) {
        samples.addLast(new Sample(nanos, Map.copyOf(ends)));
        while (samples.getFirst().nanos() < nanos - span.toNanos()) {
            samples.removeFirst();
        }
    }

    /**
     * How far behind the lake, at {@code lake} offsets, was in table {@code tableId} at {@code nowNanos}: the time
     * since the oldest sample with a row it lacks; zero when it lacks none.
     */
    synchronized Duration behind(long tableId, Map<TableBucket, Long> lake, long nowNanos) {
        for (Sample sample : samples) {
            boolean lacking = sample.ends().entrySet().stream()
                    .anyMatch(e -> e.getKey().getTableId() == tableId && e.getValue() > lake.getOrDefault(e.getKey(), 0L));
            if (lacking) {
                return Duration.ofNanos(Math.max(0, nowNanos - sample.nanos()));
            }
        }
        return Duration.ZERO;
    }
}
