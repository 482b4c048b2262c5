package io.lakesync.bench.data;

/** Rows of a log table: row {@code i} is a pure function of the seed and {@code i}. */
public final class LogData {

    private LogData() {}

    public static BenchRecord row(long seed, long i) {
        return BenchRecord.generate(seed, i, 0);
    }
}
