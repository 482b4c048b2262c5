package io.lakesync.metrics;

import io.lakesync.status.TableState;
import io.lakesync.status.TableStatus;
import io.lakesync.tiering.maintenance.MaintenanceReport;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.annotation.Nullable;

/**
 * The catalogue of per-table metrics: each one defined here once, with the id alert rules and the JSON API use,
 * its Prometheus name on {@code /metrics} (Fluss's own lake tiering names where Fluss has one), help text, unit,
 * and how it is read from a table's {@link TableStatus}. {@code /metrics}, alert rules,
 * {@code GET /api/v1/metrics/catalogue} and the console all read this list, so adding a metric is adding a constant.
 */
public enum TableMetric {
    SYNC_LATENCY_MS("syncLatencyMs", "tierLag", Unit.MILLISECONDS, false,
            "Sync latency: age of the oldest record not yet in the lake (0 when nothing is pending).",
            (status, now) -> millis(status.syncLatency())),
    TIERED_TIMESTAMP("tieredTimestamp", "tieredTimestamp", Unit.EPOCH_MILLISECONDS, false,
            "When Paimon committed the lake snapshot the coordinator serves (absent before the first).",
            (status, now) -> status.lakeCommittedAt() == null ? null : (double) status.lakeCommittedAt().toEpochMilli()),
    CHECKPOINT_AGE_MS("checkpointAgeMs", "checkpointAge", Unit.MILLISECONDS, false,
            "How long the lake checkpoint has not advanced while data is pending (0 otherwise).",
            (status, now) -> millis(status.checkpointAge())),
    PENDING_RECORDS("pendingRecords", "pendingRecords", Unit.RECORDS, false,
            "Records in Fluss not yet in the lake.",
            (status, now) -> (double) status.pendingRecords()),
    LAKE_SNAPSHOT_ID("lakeSnapshotId", "lakeSnapshotId", Unit.NONE, false,
            "Lake snapshot id of the sync checkpoint (absent before the first).",
            (status, now) -> status.lakeSnapshotId() == null ? null : (double) status.lakeSnapshotId()),
    FRESHNESS_MS("freshnessMs", "freshness", Unit.MILLISECONDS, false,
            "The table's table.datalake.freshness.",
            (status, now) -> millis(status.freshness())),
    TIER_DURATION_MS("tierDurationMs", "tierDuration", Unit.MILLISECONDS, false,
            "Duration of the last round this instance ran (absent before the first).",
            (status, now) -> status.activity().lastRoundDuration() == null
                    ? null : millis(status.activity().lastRoundDuration())),
    ROUNDS_TOTAL("roundsTotal", "roundsTotal", Unit.ROUNDS, true,
            "Rounds this instance completed.",
            (status, now) -> (double) status.activity().rounds()),
    FAILURES_TOTAL("failuresTotal", "failuresTotal", Unit.ROUNDS, true,
            "Rounds this instance saw fail.",
            (status, now) -> (double) status.activity().failures()),
    ROWS_TIERED_TOTAL("rowsTieredTotal", "rowsTieredTotal", Unit.RECORDS, true,
            "Records this instance tiered.",
            (status, now) -> (double) status.activity().rowsTiered()),
    BYTES_TIERED_TOTAL("bytesTieredTotal", "bytesTieredTotal", Unit.BYTES, true,
            "Bytes of lake files this instance wrote.",
            (status, now) -> (double) status.activity().bytesTiered()),
    FILES_WRITTEN_TOTAL("filesWrittenTotal", "filesWrittenTotal", Unit.FILES, true,
            "Lake files this instance wrote.",
            (status, now) -> (double) status.activity().filesWritten()),
    OBSERVATION_AGE_MS("observationAgeMs", "observationAge", Unit.MILLISECONDS, false,
            "How long ago the figures were read from Fluss and the lake; grows while observations fail.",
            (status, now) -> (double) Math.max(0, Duration.between(status.observedAt(), now).toMillis())),
    STALE("stale", "stale", Unit.BOOLEAN, false,
            "1 while the table cannot be observed and the figures are the last known ones, else 0.",
            (status, now) -> status.stale() ? 1.0 : 0.0),
    STATE_UNKNOWN("stateUnknown", "stateUnknown", Unit.BOOLEAN, false,
            "1 while the table's state is UNKNOWN (it cannot be observed for a while), else 0.",
            (status, now) -> status.state() == TableState.UNKNOWN ? 1.0 : 0.0),
    QUOTA_HELD_BACK("quotaHeldBack", "quotaHeldBack", Unit.BOOLEAN, false,
            "1 while the table's round waits for a compute unit (its database's or the cluster's CU quota is used up), else 0.",
            (status, now) -> status.heldBackByQuota() ? 1.0 : 0.0),
    // Lake maintenance (io.lakesync.tiering.maintenance): the lake table after this instance's last pass.
    LAKE_DATA_FILES("lakeDataFiles", "lakeDataFiles", Unit.FILES, false,
            "Data files the lake table's newest snapshot reads (absent before the first maintenance pass).",
            (status, now) -> lake(status, report -> (double) report.figures().dataFiles())),
    LAKE_AVERAGE_FILE_BYTES("lakeAverageFileBytes", "lakeAverageFileBytes", Unit.BYTES, false,
            "Mean size of those data files.",
            (status, now) -> lake(status, report -> (double) report.figures().averageFileBytes())),
    LAKE_SMALL_FILE_RATIO("lakeSmallFileRatio", "lakeSmallFileRatio", Unit.NONE, false,
            "Share (0..1) of those data files that compaction would merge.",
            (status, now) -> lake(status, report -> report.figures().smallFileRatio())),
    LAKE_SNAPSHOTS_KEPT("lakeSnapshotsKept", "lakeSnapshotsKept", Unit.NONE, false,
            "Paimon snapshots the lake table keeps.",
            (status, now) -> lake(status, report -> (double) report.figures().snapshotsKept())),
    BYTES_RECLAIMED_TOTAL("bytesReclaimedTotal", "bytesReclaimedTotal", Unit.BYTES, true,
            "Bytes of lake files maintenance deleted (compacted and expired files, orphans).",
            (status, now) -> lake(status, report -> (double) report.bytesReclaimedTotal())),
    LAST_COMPACTION_TIMESTAMP("lastCompactionTimestamp", "lastCompactionTimestamp", Unit.EPOCH_MILLISECONDS, false,
            "When maintenance last compacted the table (absent if never).",
            (status, now) -> lake(status, report -> report.lastCompaction() == null
                    ? null : (double) report.lastCompaction().toEpochMilli()));

    /** Prefix of every per-table metric's Prometheus name. */
    public static final String PROMETHEUS_PREFIX = "lakesync_table_";

    /** What a metric's values count. */
    public enum Unit {
        MILLISECONDS, EPOCH_MILLISECONDS, RECORDS, ROUNDS, BYTES, FILES, BOOLEAN, NONE;

        /** As the JSON API writes it, for example {@code milliseconds}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How a metric is read from a table's status at {@code now}; null when it has no value (yet). */
    @FunctionalInterface
    interface Reader {
        @Nullable
        Double read(TableStatus status, Instant now);
    }

    private final String id;
    private final String prometheusName;
    private final Unit unit;
    private final boolean counter;
    private final String help;
    private final Reader reader;

    TableMetric(String id, String prometheusName, Unit unit, boolean counter, String help, Reader reader) {
        this.id = id;
        this.prometheusName = PROMETHEUS_PREFIX + prometheusName;
        this.unit = unit;
        this.counter = counter;
        this.help = help;
        this.reader = reader;
    }

    /** The id alert rules and the JSON API use, for example {@code syncLatencyMs}. */
    public String id() {
        return id;
    }

    /** The name on {@code /metrics}, for example {@code lakesync_table_tierLag}. */
    public String prometheusName() {
        return prometheusName;
    }

    public Unit unit() {
        return unit;
    }

    public String help() {
        return help;
    }

    /** Whether the metric only grows (until a restart), so that rules can watch its increase over a window. */
    public boolean isCounter() {
        return counter;
    }

    /** Whether values are milliseconds of elapsed time, so thresholds may be written as durations such as 5min. */
    public boolean isDuration() {
        return unit == Unit.MILLISECONDS;
    }

    /** This metric of {@code status} at {@code now}, or null if it has no value (yet). */
    @Nullable
    public Double read(TableStatus status, Instant now) {
        return reader.read(status, now);
    }

    /** Every metric of {@code status} that has a value, by id, in catalogue order. */
    public static Map<String, Double> readAll(TableStatus status, Instant now) {
        Map<String, Double> values = new LinkedHashMap<>();
        for (TableMetric metric : values()) {
            Double value = metric.read(status, now);
            if (value != null) {
                values.put(metric.id, value);
            }
        }
        return values;
    }

    /** The metric with this id or Prometheus name (with or without its {@value #PROMETHEUS_PREFIX} prefix). */
    public static Optional<TableMetric> byName(String name) {
        return Arrays.stream(values())
                .filter(metric -> metric.id.equals(name)
                        || metric.prometheusName.equals(name)
                        || metric.prometheusName.equals(PROMETHEUS_PREFIX + name))
                .findFirst();
    }

    /** The ids of all metrics, or of the counters only, for error messages. */
    public static String ids(boolean countersOnly) {
        return Arrays.stream(values())
                .filter(metric -> !countersOnly || metric.counter)
                .map(TableMetric::id)
                .collect(Collectors.joining(", "));
    }

    private static Double millis(Duration duration) {
        return (double) duration.toMillis();
    }

    private static @Nullable Double lake(TableStatus status, Function<MaintenanceReport, Double> read) {
        MaintenanceReport report = status.activity().maintenance();
        return report == null ? null : read.apply(report);
    }
}
