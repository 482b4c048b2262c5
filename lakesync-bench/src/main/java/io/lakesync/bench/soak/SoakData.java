package io.lakesync.bench.soak;

import io.lakesync.bench.data.BenchRecord;
import io.lakesync.bench.data.LogData;
import io.lakesync.bench.data.PkOps;
import io.lakesync.bench.data.PkState;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rows of the soak's three tables, generated in order, and what the lake must hold once they are tiered:
 * log rows {@code 0, 1, 2, ...} (each id once), primary-key operations of {@link PkOps} (inserts, updates,
 * deletes) with their resulting {@link PkState}, and partitioned rows {@code 0, 1, 2, ...} with the partition
 * each went into. Not thread-safe: one writer generates, the verifier reads after it stopped.
 */
public final class SoakData {

    private final long seed;
    private final PkOps pkOps;
    private final PkState pkState;
    /** First id written into each partition. */
    private final TreeMap<Long, String> partitionStarts = new TreeMap<>();
    private long logRows;
    private long pkOperations;
    private long partitionedRows;

    public SoakData(long seed) {
        this.seed = seed;
        this.pkOps = new PkOps(pkSeed());
        this.pkState = new PkState(pkSeed());
    }

    BenchRecord nextLogRow() {
        return LogData.row(seed, logRows++);
    }

    /** The next primary-key operation, already applied to {@link #pkState()}. */
    PkOps.Op nextPkOperation() throws Exception {
        PkOps.Op op = pkOps.next();
        pkState.apply(op);
        pkOperations++;
        return op;
    }

    BenchRecord nextPartitionedRow(String partition) {
        Map.Entry<Long, String> current = partitionStarts.lastEntry();
        if (current == null || !current.getValue().equals(partition)) {
            partitionStarts.put(partitionedRows, partition);
        }
        return partitionedRow(partitionedRows++);
    }

    /** Log row {@code id} as written. */
    BenchRecord logRow(long id) {
        return LogData.row(seed, id);
    }

    /** Partitioned row {@code id} as written. */
    BenchRecord partitionedRow(long id) {
        return LogData.row(seed + 2, id);
    }

    /** The partition partitioned row {@code id} (one that was written) went into. */
    String partitionOf(long id) {
        return partitionStarts.floorEntry(id).getValue();
    }

    /** Log rows written so far; read from another thread it may lag a little (the campaign places faults by it). */
    public long logRows() {
        return logRows;
    }

    long pkOperations() {
        return pkOperations;
    }

    PkState pkState() {
        return pkState;
    }

    long partitionedRows() {
        return partitionedRows;
    }

    int partitions() {
        return partitionStarts.size();
    }

    private long pkSeed() {
        return seed + 1;
    }
}
