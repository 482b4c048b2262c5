package io.lakesync.bench.contender;

import java.util.Arrays;
import java.util.stream.Collectors;

/** Who is measured. Tiering contenders run until the driver sees every table synced; bounds run to completion. */
public enum Contender {
    A("A", true, "Fluss's Flink tiering job (LakeTieringJobBuilder, fluss-flink-1.20 0.9.1, Flink 1.20 local "
            + "MiniCluster, parallelism = cores), table poll interval 200 ms as B's default (the job's: 30 s)"),
    B("B", true, "lakesync's native tiering engine (TieringService), default settings"),
    B_ROW("B-row", true, "the same engine with the columnar reader and writer off (tiering.columnar-read=false, "
            + "tiering.columnar-write=false): the Fluss LogScanner, a row copied per record, Paimon's row writer"),
    B_ROW_WRITE("B-row-write", true, "the same engine with only the columnar writer off "
            + "(tiering.columnar-write=false): Arrow batches read columnar, written by Paimon's row writer"),
    B_WARM_UP("B-warm-up", true, "the same engine with its start-up warm-up on (tiering.warm-up=true): the write "
            + "path on made-up rows and the Fluss client's requests before it takes tables"),
    A_DEFAULT("A-default", true, "the same Flink job with its default settings (table poll interval 30 s)"),
    READ_BOUND("read-bound", false, "Fluss read alone: scan the same offsets (KV snapshot + log), discard"),
    WRITE_BOUND("write-bound", false, "Paimon write alone: the same rows from memory into a scratch table of "
            + "the same layout"),
    FORMAT_BOUND("parquet-from-memory", false, "the table's file format alone (Parquet, zstd as the table says), "
            + "by the fastest encoder found (log tables: lakesync's column writers; else Paimon's format writer): the "
            + "same rows from memory encoded into data files, no manifests, no commit");

    private final String label;
    private final boolean tiering;
    private final String description;

    Contender(String label, boolean tiering, String description) {
        this.label = label;
        this.tiering = tiering;
        this.description = description;
    }

    public String label() {
        return label;
    }

    /** A tiering service (syncs tables through the coordinator) rather than a bound. */
    public boolean tiering() {
        return tiering;
    }

    public String description() {
        return description;
    }

    public static Contender fromLabel(String label) {
        for (Contender c : values()) {
            if (c.label.equalsIgnoreCase(label.trim())) {
                return c;
            }
        }
        throw new IllegalArgumentException(
                "Unknown contender '" + label + "'. Known: " + labels() + ".");
    }

    public static String labels() {
        return Arrays.stream(values()).map(Contender::label).collect(Collectors.joining(", "));
    }
}
