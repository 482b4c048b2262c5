package io.lakesync.alert;

import io.lakesync.metrics.TableMetric;
import java.util.Map;

/**
 * Where the alert evaluator reads the current per-table metrics: table ({@code "<database>.<table>"}) to metric id
 * ({@link TableMetric#id()}) to value. A table that is absent is not synced by this instance (any more); a metric
 * that is absent has no value yet. The evaluator keeps the history that windowed rules need itself.
 */
@FunctionalInterface
public interface TableMetricsSource {

    Map<String, Map<String, Double>> snapshot();
}
