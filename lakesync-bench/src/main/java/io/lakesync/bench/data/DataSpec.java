package io.lakesync.bench.data;

import java.util.Map;

/**
 * What one benchmark table holds, reproducible from its fields alone: the driver writes it into Fluss and the
 * write bound regenerates it in another JVM.
 *
 * @param primaryKey a primary-key table fed with {@link PkOps}, else a log table fed with {@link LogData}
 * @param rows rows appended (log) or operations applied (primary key)
 * @param seed seed of every generated value
 * @param buckets Fluss bucket count
 * @param baseFraction primary key only: share of the operations written before the KV snapshot the tiering
 *     starts from; the rest is the changelog tail
 */
public record DataSpec(boolean primaryKey, long rows, long seed, int buckets, double baseFraction) {

    public DataSpec {
        if (rows < 0 || rows > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("rows must be between 0 and " + Integer.MAX_VALUE + ": " + rows);
        }
        if (buckets < 1) {
            throw new IllegalArgumentException("buckets must be at least 1: " + buckets);
        }
    }

    public static DataSpec log(long rows, long seed, int buckets) {
        return new DataSpec(false, rows, seed, buckets, 1.0);
    }

    public static DataSpec primaryKey(long rows, long seed, int buckets, double baseFraction) {
        return new DataSpec(true, rows, seed, buckets, baseFraction);
    }

    /** Table {@code index} of a several-table scenario: this spec with its own seed ({@code seed + index}). */
    public DataSpec ofTable(int index) {
        return new DataSpec(primaryKey, rows, seed + index, buckets, baseFraction);
    }

    /** Operations written before the KV snapshot (all rows for a log table). */
    public long baseRows() {
        return primaryKey ? (long) Math.floor(rows * baseFraction) : rows;
    }

    /** The spec as child-process arguments; {@link #fromArgs} reads them back. */
    public Map<String, String> toArgs() {
        return Map.of(
                "spec.primary-key", String.valueOf(primaryKey),
                "spec.rows", String.valueOf(rows),
                "spec.seed", String.valueOf(seed),
                "spec.buckets", String.valueOf(buckets),
                "spec.base-fraction", String.valueOf(baseFraction));
    }

    public static DataSpec fromArgs(Map<String, String> args) {
        return new DataSpec(
                Boolean.parseBoolean(args.get("spec.primary-key")),
                Long.parseLong(args.get("spec.rows")),
                Long.parseLong(args.get("spec.seed")),
                Integer.parseInt(args.get("spec.buckets")),
                Double.parseDouble(args.get("spec.base-fraction")));
    }
}
