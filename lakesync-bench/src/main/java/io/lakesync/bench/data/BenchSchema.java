package io.lakesync.bench.data;

import java.time.Duration;
import java.util.List;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.RowKind;

/**
 * The six columns of every benchmark table ({@code id BIGINT, user_id INT, amount BIGINT, category STRING,
 * name STRING, payload STRING}) and the conversions of a {@link BenchRecord} into Fluss and Paimon rows.
 */
public final class BenchSchema {

    public static final String KEY_COLUMN = "id";
    public static final String PARTITION_COLUMN = "part";
    /** The six columns, in table order. */
    public static final List<String> COLUMNS = List.of(KEY_COLUMN, "user_id", "amount", "category", "name", "payload");

    private static final List<DataType> TYPES = List.of(
            DataTypes.BIGINT(), DataTypes.INT(), DataTypes.BIGINT(), DataTypes.STRING(), DataTypes.STRING(),
            DataTypes.STRING());

    private BenchSchema() {}

    /** A lake-enabled Fluss table of {@code buckets} buckets, primary key {@code id} when {@code primaryKey}. */
    public static TableDescriptor descriptor(boolean primaryKey, int buckets, Duration freshness) {
        Schema.Builder schema = columns();
        if (primaryKey) {
            schema.primaryKey(KEY_COLUMN);
        }
        return lakeEnabled(TableDescriptor.builder().schema(schema.build()), freshness)
                .distributedBy(buckets)
                .build();
    }

    /**
     * A lake-enabled log table of the six columns plus {@value #PARTITION_COLUMN} {@code STRING}, partitioned by
     * it, {@code buckets} buckets per partition (bucket key {@code id}).
     */
    public static TableDescriptor partitionedDescriptor(int buckets, Duration freshness) {
        Schema schema = columns().column(PARTITION_COLUMN, DataTypes.STRING()).build();
        return lakeEnabled(TableDescriptor.builder().schema(schema), freshness)
                .partitionedBy(PARTITION_COLUMN)
                .distributedBy(buckets, KEY_COLUMN)
                .build();
    }

    private static Schema.Builder columns() {
        Schema.Builder schema = Schema.newBuilder();
        for (int i = 0; i < COLUMNS.size(); i++) {
            schema.column(COLUMNS.get(i), TYPES.get(i));
        }
        return schema;
    }

    private static TableDescriptor.Builder lakeEnabled(TableDescriptor.Builder builder, Duration freshness) {
        return builder.property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", freshnessValue(freshness));
    }

    /** A duration the way Fluss table properties take it. */
    public static String freshnessValue(Duration freshness) {
        return freshness.toMillis() + " ms";
    }

    public static GenericRow toFluss(BenchRecord r) {
        return GenericRow.of(
                r.id(),
                r.userId(),
                r.amount(),
                BinaryString.fromString(r.category()),
                BinaryString.fromString(r.name()),
                BinaryString.fromString(r.payload()));
    }

    /** A row of the {@link #partitionedDescriptor partitioned table}: the record in partition {@code partition}. */
    public static GenericRow toFluss(BenchRecord r, String partition) {
        GenericRow row = new GenericRow(COLUMNS.size() + 1);
        GenericRow columns = toFluss(r);
        for (int i = 0; i < COLUMNS.size(); i++) {
            row.setField(i, columns.getField(i));
        }
        row.setField(COLUMNS.size(), BinaryString.fromString(partition));
        return row;
    }

    /** The record in the first six fields of a Paimon row read with the projection {@link #COLUMNS}. */
    public static BenchRecord fromPaimon(InternalRow row) {
        return new BenchRecord(
                row.getLong(0),
                row.getInt(1),
                row.getLong(2),
                row.getString(3).toString(),
                row.getString(4).toString(),
                row.getString(5).toString());
    }

    /** The row as a tiering writes it into Paimon: the columns, then {@code __bucket, __offset, __timestamp}. */
    public static org.apache.paimon.data.GenericRow toPaimon(
            BenchRecord r, RowKind kind, int bucket, long offset, long timestampMillis) {
        return org.apache.paimon.data.GenericRow.ofKind(
                kind,
                r.id(),
                r.userId(),
                r.amount(),
                org.apache.paimon.data.BinaryString.fromString(r.category()),
                org.apache.paimon.data.BinaryString.fromString(r.name()),
                org.apache.paimon.data.BinaryString.fromString(r.payload()),
                bucket,
                offset,
                Timestamp.fromEpochMillis(timestampMillis));
    }
}
