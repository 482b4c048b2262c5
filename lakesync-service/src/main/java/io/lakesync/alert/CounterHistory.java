package io.lakesync.alert;

import io.lakesync.metrics.TableMetric;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Recent samples of the counter metrics per table, so that rules can watch a counter's increase over a window.
 * A counter that goes down was reset (its lakesync instance restarted), so its new value counts as increase.
 */
final class CounterHistory {

    private record Sample(Instant at, double value) {}

    /** table to counter id to samples, oldest first. */
    private final Map<String, Map<String, Deque<Sample>>> samples = new HashMap<>();

    /**
     * Adds the counters of {@code snapshot} taken at {@code now}, keeping enough history for windows up to
     * {@code longestWindow}, and forgets tables that are gone.
     */
    void record(Instant now, Map<String, Map<String, Double>> snapshot, Duration longestWindow) {
        samples.keySet().retainAll(snapshot.keySet());
        Instant windowStart = now.minus(longestWindow);
        snapshot.forEach((table, values) -> {
            for (TableMetric metric : TableMetric.values()) {
                Double value = values.get(metric.id());
                if (!metric.isCounter() || value == null) {
                    continue;
                }
                Deque<Sample> history = samples.computeIfAbsent(table, t -> new HashMap<>())
                        .computeIfAbsent(metric.id(), m -> new ArrayDeque<>());
                history.addLast(new Sample(now, value));
                // Keep one sample at or before the window start: it is the baseline the increase counts from.
                while (history.size() > 1 && !secondOldest(history).at().isAfter(windowStart)) {
                    history.removeFirst();
                }
            }
        });
    }

    /**
     * How much {@code metric} of {@code table} grew in the {@code window} before {@code now}, counted from the last
     * sample at or before the window start (or the oldest sample, if history is shorter); null without samples.
     */
    Double increase(String table, String metric, Duration window, Instant now) {
        Deque<Sample> history = samples.getOrDefault(table, Map.of()).get(metric);
        if (history == null || history.isEmpty()) {
            return null;
        }
        Instant windowStart = now.minus(window);
        List<Sample> ordered = List.copyOf(history);
        int baseline = 0;
        for (int i = 0; i < ordered.size(); i++) {
            if (!ordered.get(i).at().isAfter(windowStart)) {
                baseline = i;
            }
        }
        double increase = 0;
        for (int i = baseline + 1; i < ordered.size(); i++) {
            double previous = ordered.get(i - 1).value();
            double current = ordered.get(i).value();
            increase += current >= previous ? current - previous : current;
        }
        return increase;
    }

    private static Sample secondOldest(Deque<Sample> history) {
        Iterator<Sample> iterator = history.iterator();
        iterator.next();
        return iterator.next();
    }
}
