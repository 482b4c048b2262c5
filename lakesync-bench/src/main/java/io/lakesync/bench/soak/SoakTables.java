package io.lakesync.bench.soak;

import io.lakesync.bench.cluster.BenchCluster;
import io.lakesync.bench.data.BenchSchema;
import java.time.Duration;
import java.util.List;
import org.apache.fluss.metadata.TablePath;

/**
 * The soak's three lake-enabled tables: a log table, a primary-key table and a log table partitioned by a
 * STRING column whose partitions appear while the soak runs. All share the benchmark's six columns.
 */
public record SoakTables(TablePath log, TablePath primaryKey, TablePath partitioned) {

    static final String DATABASE = "soak";

    public static SoakTables standard() {
        return new SoakTables(
                TablePath.of(DATABASE, "events"), TablePath.of(DATABASE, "accounts"), TablePath.of(DATABASE, "events_by_part"));
    }

    public List<TablePath> all() {
        return List.of(log, primaryKey, partitioned);
    }

    public void create(BenchCluster cluster, int buckets, Duration freshness) throws Exception {
        cluster.createTable(log, BenchSchema.descriptor(false, buckets, freshness));
        cluster.createTable(primaryKey, BenchSchema.descriptor(true, buckets, freshness));
        cluster.createTable(partitioned, BenchSchema.partitionedDescriptor(buckets, freshness));
    }

    /** Partition {@code index}, in the order they appear: p0000, p0001, ... */
    static String partitionName(long index) {
        return String.format("p%04d", index);
    }
}
