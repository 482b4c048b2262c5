package io.lakesync.bench.campaign;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.metadata.TableBucket;

/**
 * What Fluss and the lake held when: the end offsets of every bucket in Fluss and in the lake, sampled over time,
 * so that how far behind the lake was at a past moment can be told, table by table (see {@link #behind}).
 * Samples older than the history's span are dropped.
 */
final class WrittenHistory {

    private record Sample(long nanos, Map<TableBucket, Long> ends) {}

    private final Deque<Sample> fluss = new ArrayDeque<>();
    private final Deque<Sample> lake = new ArrayDeque<>();
    private final Duration span;

    WrittenHistory(Duration span) {
        this.span = span;
    }

    /** Fluss's end offsets at {@code nanos}. */
    synchronized void fluss(long nanos, Map<TableBucket, Long> ends) {
        add(fluss, new Sample(nanos, Map.copyOf(ends)));
    }

    /** The lake's end offsets at {@code nanos}. */
    synchronized void lake(long nanos, Map<TableBucket, Long> ends) {
        add(lake, new Sample(nanos, Map.copyOf(ends)));
    }

    /**
     * How far behind the lake was in table {@code tableId} at {@code atNanos}, at least: the time since the oldest
     * Fluss sample (up to then) with a row that the lake still lacked at its first sample from then on (the lake
     * only grows, so a later sample never makes the lake look further behind than it was); zero when it lacks
     * none; empty when the lake has no sample from then on yet.
     */
    synchronized Optional<Duration> behind(long tableId, long atNanos) {
        Map<TableBucket, Long> lakeThen = null;
        for (Sample sample : lake) {
            if (sample.nanos() >= atNanos) {
                lakeThen = sample.ends();
                break;
            }
        }
        if (lakeThen == null) {
            return Optional.empty();
        }
        for (Sample sample : fluss) {
            if (sample.nanos() > atNanos) {
                break;
            }
            Map<TableBucket, Long> held = lakeThen;
            boolean lacking = sample.ends().entrySet().stream()
                    .anyMatch(e -> e.getKey().getTableId() == tableId && e.getValue() > held.getOrDefault(e.getKey(), 0L));
            if (lacking) {
                return Optional.of(Duration.ofNanos(atNanos - sample.nanos()));
            }
        }
        return Optional.of(Duration.ZERO);
    }

    private void add(Deque<Sample> samples, Sample sample) {
        samples.addLast(sample);
        while (samples.getFirst().nanos() < sample.nanos() - span.toNanos()) {
            samples.removeFirst();
        }
    }
}
