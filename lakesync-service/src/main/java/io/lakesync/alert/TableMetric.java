package io.lakesync.alert;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/** The per-table metrics the tiering engine publishes and alert rules can watch, by their published id. */
public enum TableMetric {
    /** Age of the oldest record not yet in the lake; 0 when the table is idle. */
    SYNC_LATENCY_MS("syncLatencyMs", false),
    /** Time since the lake checkpoint last advanced while data is pending; 0 when nothing is pending. */
    CHECKPOINT_AGE_MS("checkpointAgeMs", false),
    /** Records written to Fluss but not yet in the lake. */
    PENDING_RECORDS("pendingRecords", false),
    /** Failed tiering rounds since the service started. */
    FAILURES_TOTAL("failuresTotal", true),
    /** Tiering rounds since the service started. */
    ROUNDS_TOTAL("roundsTotal", true),
    /** Duration of the last tiering round. */
    TIER_DURATION_MS("tierDurationMs", false),
    /** Rows written to the lake since the service started. */
    ROWS_TIERED_TOTAL("rowsTieredTotal", true),
    /** How long ago the table's figures were read; grows while it cannot be observed. */
    OBSERVATION_AGE_MS("observationAgeMs", false),
    /** 1 while the table's state is UNKNOWN (it cannot be observed), else 0. */
    STATE_UNKNOWN("stateUnknown", false),
    /** Data files of the lake table's newest snapshot, after the last maintenance pass. */
    LAKE_DATA_FILES("lakeDataFiles", false),
    /** Share (0..1) of those files that compaction would merge. */
    LAKE_SMALL_FILE_RATIO("lakeSmallFileRatio", false),
    /** Paimon snapshots the lake table keeps. */
    LAKE_SNAPSHOTS_KEPT("lakeSnapshotsKept", false);

    private final String id;
    private final boolean counter;

    TableMetric(String id, boolean counter) {
        this.id = id;
        this.counter = counter;
    }

    /** The name the engine publishes and rules use, for example {@code syncLatencyMs}. */
    public String id() {
        return id;
    }

    /** Whether the metric only grows (until a restart), so that rules can watch its increase over a window. */
    public boolean isCounter() {
        return counter;
    }

    /** Whether values are milliseconds, so thresholds may be written as durations such as {@code 5min}. */
    public boolean isDuration() {
        return id.endsWith("Ms");
    }

    public static Optional<TableMetric> byId(String id) {
        return Arrays.stream(values()).filter(metric -> metric.id.equals(id)).findFirst();
    }

    /** The ids of all metrics, or of the counters only, for error messages. */
    static String ids(boolean countersOnly) {
        return Arrays.stream(values())
                .filter(metric -> !countersOnly || metric.counter)
                .map(TableMetric::id)
                .collect(Collectors.joining(", "));
    }
}
