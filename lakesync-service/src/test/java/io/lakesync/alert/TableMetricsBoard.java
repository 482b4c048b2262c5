package io.lakesync.alert;

import io.lakesync.metrics.TableMetric;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The per-table metrics a test sets, standing in for the tiering engine's. */
final class TableMetricsBoard implements TableMetricsSource {

    private final Map<String, Map<String, Double>> tables = new ConcurrentHashMap<>();

    TableMetricsBoard set(String table, TableMetric metric, double value) {
        tables.computeIfAbsent(table, t -> new ConcurrentHashMap<>()).put(metric.id(), value);
        return this;
    }

    TableMetricsBoard unset(String table, TableMetric metric) {
        tables.getOrDefault(table, new HashMap<>()).remove(metric.id());
        return this;
    }

    TableMetricsBoard drop(String table) {
        tables.remove(table);
        return this;
    }

    @Override
    public Map<String, Map<String, Double>> snapshot() {
        Map<String, Map<String, Double>> copy = new HashMap<>();
        tables.forEach((table, values) -> copy.put(table, Map.copyOf(values)));
        return copy;
    }
}
