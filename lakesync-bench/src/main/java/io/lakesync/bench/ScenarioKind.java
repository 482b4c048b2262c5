package io.lakesync.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The scenarios and their defaults. */
public enum ScenarioKind {
    BACKFILL_LOG("backfill-log", 1_000_000, 8, Duration.ofMinutes(10), 1),
    BACKFILL_PK("backfill-pk", 1_000_000, 8, Duration.ofSeconds(5), 1),
    STEADY("steady", 0, 4, Duration.ofSeconds(30), 4),
    MANY_TABLES("many-tables", 1_000, 1, Duration.ofMinutes(10), 200);

    static final Duration WARM_MAX_FRESHNESS = Duration.ofMinutes(1);
    private static final int BACKFILL_WARM_TABLES = 4;
    /**
     * backfill-log: six times the timed rows. After a warm-up of the timed size both contenders' JIT compilers were
     * still at work in the timed window on 2 cores, the faster contender's more (its warm-up was over sooner); with
     * six times as many rows the compiler threads' CPU in the timed window ({@code JIT CPU s}) fell to 0.2–0.7 of
     * 4–8 CPU s (lakesync-bench README, "Warm-up size and the JIT").
     */
    private static final int BACKFILL_LOG_WARM_TABLES = 24;
    /**
     * Warm mode: the warm-up tables are synced twice over, the second set queued once the first is in the lake. On
     * 2 cores the compile queue stays long through a busy warm-up, and HotSpot raises its thresholds with the
     * queue's length; code that passed the plain thresholds meanwhile is queued at its next call, which without a
     * second wave is in the timed window (lakesync-bench README, "Warm-up size and the JIT").
     */
    private static final int WARM_WAVES = 2;
    /**
     * many-tables: three times over. Its per-table code runs a few times per table, so it reaches C2's thresholds
     * only after hundreds of tables: after two waves of 200 both contenders' compilers still took 1.7–3.2 CPU s in
     * the timed window, after three 1.3–2.0 (lakesync-bench README, "Warm-up size and the JIT").
     */
    private static final int MANY_TABLES_WARM_WAVES = 3;

    private final String label;
    private final long defaultRows;
    private final int defaultBuckets;
    private final Duration defaultFreshness;
    private final int defaultTables;

    /**
     * Freshness defaults: a backfill of a log table gets one long enough that no round is force-finished
     * mid-backfill; a primary-key backfill needs a second round (changelog after the KV snapshot), which the
     * coordinator schedules one freshness after the first, so it gets a short one.
     */
    ScenarioKind(String label, long defaultRows, int defaultBuckets, Duration defaultFreshness, int defaultTables) {
        this.label = label;
        this.defaultRows = defaultRows;
        this.defaultBuckets = defaultBuckets;
        this.defaultFreshness = defaultFreshness;
        this.defaultTables = defaultTables;
    }

    public String label() {
        return label;
    }

    /** Rows of the table (backfill-log), operations (backfill-pk), rows per table (many-tables). */
    public long defaultRows() {
        return defaultRows;
    }

    public int defaultBuckets() {
        return defaultBuckets;
    }

    /**
     * Warm mode caps the default at {@link #WARM_MAX_FRESHNESS}: a timed table waits parked until it is one freshness
     * old (see {@code BenchCluster}), and no round of these backfills comes near a minute.
     */
    public Duration defaultFreshness(boolean warm) {
        return warm && defaultFreshness.compareTo(WARM_MAX_FRESHNESS) > 0 ? WARM_MAX_FRESHNESS : defaultFreshness;
    }

    /**
     * Warm mode: rows (or operations) of each warm-up table unless given. A backfill's warm-up tables hold a
     * {@link #BACKFILL_WARM_TABLES}th of the timed table each (backfill-pk: four of them, as many operations as the
     * timed table; backfill-log: more, see {@link #BACKFILL_LOG_WARM_TABLES}): the contender runs the very workload
     * it is timed on, in several rounds. One round of the same size left B's primary-key path less compiled (code
     * that runs once per bucket and round is compiled after enough rounds, not rows): 8.2 against 3.8 CPU s for
     * the same timed round (lakesync-bench README). Many-tables: tables of the timed size.
     */
    public long defaultWarmRows(long rows) {
        return this == MANY_TABLES ? rows : Math.max(1, rows / BACKFILL_WARM_TABLES);
    }

    /**
     * Warm mode: warm-up tables unless given (many-tables: as many small tables as the timed run, whose per-table
     * code a warm-up of 50 left at C2 in the timed window: its JIT CPU was half of A's and 40% of B's; backfill-log:
     * six times the timed rows, see {@link #BACKFILL_LOG_WARM_TABLES}).
     */
    public int defaultWarmTables(int tables) {
        return switch (this) {
            case MANY_TABLES -> tables;
            case BACKFILL_LOG -> BACKFILL_LOG_WARM_TABLES;
            default -> BACKFILL_WARM_TABLES;
        };
    }

    /** Warm mode: how many times the warm-up tables are synced unless told (see {@link #WARM_WAVES}). */
    public int defaultWarmWaves() {
        return this == MANY_TABLES ? MANY_TABLES_WARM_WAVES : WARM_WAVES;
    }

    public int defaultTables() {
        return defaultTables;
    }

    public static ScenarioKind fromLabel(String label) {
        for (ScenarioKind kind : values()) {
            if (kind.label.equals(label)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("Unknown --scenario '" + label + "'. Known: " + labels() + ".");
    }

    public static String labels() {
        return Arrays.stream(values()).map(ScenarioKind::label).collect(Collectors.joining(", "));
    }
}
