package io.lakesync.metrics;

import io.lakesync.status.TableState;
import io.lakesync.status.TableStatus;
import io.lakesync.tiering.maintenance.LakeFigures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/**
 * Per-table metrics for Prometheus, read from the status tracker at scrape time, so the numbers always match
 * the API. Names follow Fluss's own lake tiering metrics where one exists ({@code tierLag},
 * {@code tieredTimestamp}, {@code tierDuration}, {@code failuresTotal}, {@code pendingRecords}) under the
 * {@code lakesync_table_} prefix, labelled by {@code database} and {@code table}. Durations and times are in
 * milliseconds, as in Fluss.
 */
public final class TableMetricsCollector implements MultiCollector {

    private static final String PREFIX = "lakesync_table_";

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
        metrics.add(gauge(statuses, "tierLag", "Sync latency: age of the oldest record not yet in the lake (0 when idle).", s -> s.syncLatency().toMillis()));
        metrics.add(gauge(statuses, "tieredTimestamp", "When Paimon committed the lake snapshot the coordinator serves (epoch ms; 0 if none).", s -> s.lakeCommittedAt() == null ? 0 : s.lakeCommittedAt().toEpochMilli()));
        metrics.add(gauge(statuses, "checkpointAge", "How long the lake checkpoint has not advanced while data is pending.", s -> s.checkpointAge().toMillis()));
        metrics.add(gauge(statuses, "pendingRecords", "Records in Fluss not yet in the lake.", TableStatus::pendingRecords));
        metrics.add(gauge(statuses, "lakeSnapshotId", "Lake snapshot id of the sync checkpoint (-1 if none).", s -> s.lakeSnapshotId() == null ? -1 : s.lakeSnapshotId()));
        metrics.add(gauge(statuses, "freshness", "The table's table.datalake.freshness.", s -> s.freshness().toMillis()));
        metrics.add(gauge(statuses, "tierDuration", "Duration of the last round this instance ran.", s -> s.activity().lastRoundDuration() == null ? 0 : s.activity().lastRoundDuration().toMillis()));
        metrics.add(gauge(statuses, "roundsTotal", "Rounds this instance completed.", s -> s.activity().rounds()));
        metrics.add(gauge(statuses, "failuresTotal", "Rounds this instance saw fail.", s -> s.activity().failures()));
        metrics.add(gauge(statuses, "rowsTieredTotal", "Records this instance tiered.", s -> s.activity().rowsTiered()));
        metrics.add(gauge(statuses, "bytesTieredTotal", "Bytes of lake files this instance wrote.", s -> s.activity().bytesTiered()));
        metrics.add(gauge(statuses, "observationAge", "How long ago the figures were read from Fluss and the lake; grows while observations fail.", s -> Math.max(0, Duration.between(s.observedAt(), clock.instant()).toMillis())));
        metrics.add(gauge(statuses, "stale", "1 while the table cannot be observed and the figures are the last known ones, else 0.", s -> s.stale() ? 1 : 0));
        metrics.add(gauge(statuses, "filesWrittenTotal", "Lake files this instance wrote.", s -> s.activity().filesWritten()));
        // Lake maintenance: the lake table after the last pass (0 until one ran).
        metrics.add(gauge(statuses, "lakeDataFiles", "Data files the lake table's newest snapshot reads.", s -> lake(s).dataFiles()));
        metrics.add(gauge(statuses, "lakeAverageFileBytes", "Mean size of those data files.", s -> lake(s).averageFileBytes()));
        metrics.add(gauge(statuses, "lakeSmallFileRatio", "Share of those files that compaction would merge (0..1).", s -> lake(s).smallFileRatio()));
        metrics.add(gauge(statuses, "lakeSnapshotsKept", "Paimon snapshots the lake table keeps.", s -> lake(s).snapshotsKept()));
        metrics.add(gauge(statuses, "bytesReclaimedTotal", "Bytes of lake files maintenance deleted (compacted and expired, orphans).", s -> s.activity().maintenance() == null ? 0 : s.activity().maintenance().bytesReclaimedTotal()));
        metrics.add(gauge(statuses, "lastCompactionTimestamp", "When maintenance last compacted the table (epoch ms; 0 if never).", s -> s.activity().maintenance() == null || s.activity().maintenance().lastCompaction() == null ? 0 : s.activity().maintenance().lastCompaction().toEpochMilli()));
        GaugeSnapshot.Builder state = GaugeSnapshot.builder().name(PREFIX + "state").help("1 for the table's current state.");
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

    private static GaugeSnapshot gauge(
            List<TableStatus> statuses, String name, String help, ToDoubleFunction<TableStatus> value) {
        GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(PREFIX + name).help(help);
        for (TableStatus status : statuses) {
            gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                    .labels(labels(status))
                    .value(value.applyAsDouble(status))
                    .build());
        }
        return gauge.build();
    }

    private static LakeFigures lake(TableStatus status) {
        return status.activity().maintenance() == null ? LakeFigures.NONE : status.activity().maintenance().figures();
    }

    private static Labels labels(TableStatus status) {
        return Labels.of("database", status.database(), "table", status.table());
    }
}
