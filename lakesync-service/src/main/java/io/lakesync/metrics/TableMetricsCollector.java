package io.lakesync.metrics;

import io.lakesync.status.TableState;
import io.lakesync.status.TableStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/**
 * Per-table metrics for Prometheus, read from the status tracker at scrape time, so the numbers always match
 * the API: every {@link TableMetric} of the catalogue as a gauge labelled by {@code database} and {@code table},
 * plus {@code lakesync_table_state}, 1 for the table's current state and 0 for the others. Durations and times
 * are in milliseconds, as in Fluss.
 */
public final class TableMetricsCollector implements MultiCollector {

    private final Supplier<List<TableStatus>> tables;
    private final Clock clock;
    private final PrometheusRegistry registry = new PrometheusRegistry();

    /** @param clock what the observation age is measured against */
    public TableMetricsCollector(Supplier<List<TableStatus>> tables, Clock clock) {
        this.tables = tables;
        this.clock = clock;
        registry.register(this);
    }

    @Override
    public MetricSnapshots collect() {
        List<TableStatus> statuses = tables.get();
        List<MetricSnapshot> metrics = new ArrayList<>();
        Instant now = clock.instant();
        for (TableMetric metric : TableMetric.values()) {
            metrics.add(gauge(statuses, metric, now));
        }
        GaugeSnapshot.Builder state = GaugeSnapshot.builder().name(TableMetric.PROMETHEUS_PREFIX + "state").help("1 for the table's current state.");
        for (TableStatus status : statuses) {
            for (TableState candidate : TableState.values()) {
                state.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                        .labels(labels(status).add("state", candidate.name()))
                        .value(candidate == status.state() ? 1 : 0)
                        .build());
            }
        }
        metrics.add(state.build());
        return new MetricSnapshots(metrics);
    }

    /** The metrics in Prometheus's text exposition format, for {@code GET /metrics}. */
    public String scrapeText() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            new PrometheusTextFormatWriter(false).write(out, registry.scrape());
        } catch (IOException e) {
            throw new IllegalStateException("Writing metrics to memory failed", e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** One gauge per catalogue metric (counters too: their values restart with the instance); no point if absent. */
    private static GaugeSnapshot gauge(List<TableStatus> statuses, TableMetric metric, Instant now) {
        GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(metric.prometheusName()).help(metric.help());
        for (TableStatus status : statuses) {
            Double value = metric.read(status, now);
            if (value != null) {
                gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                        .labels(labels(status))
                        .value(value)
                        .build());
            }
        }
        return gauge.build();
    }

    private static Labels labels(TableStatus status) {
        return Labels.of("database", status.database(), "table", status.table());
    }
}
