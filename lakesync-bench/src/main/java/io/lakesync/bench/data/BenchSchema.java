package io.lakesync.bench.data;

import java.time.Duration;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.RowKind;

/**
 * The six columns of every benchmark table ({@code id BIGINT, user_id INT, amount BIGINT, category STRING,
 * name STRING, payload STRING}) and the conversions of a {@link BenchRecord} into Fluss and Paimon rows.
 */
public final class BenchSchema {

    public static final String KEY_COLUMN = "id";

    private BenchSchema() {}

    /** A lake-enabled Fluss table of {@code buckets} buckets, primary key {@code id} when {@code primaryKey}. */
    public static TableDescriptor descriptor(boolean primaryKey, int buckets, Duration freshness) {
        Schema.Builder schema =
                Schema.newBuilder()
                        .column(KEY_COLUMN, DataTypes.BIGINT())
                        .column("user_id", DataTypes.INT())
                        .column("amount", DataTypes.BIGINT())
                        .column("category", DataTypes.STRING())
                        .column("name", DataTypes.STRING())
                        .column("payload", DataTypes.STRING());
        if (primaryKey) {
            schema.primaryKey(KEY_COLUMN);
        }
        return TableDescriptor.builder()
                .schema(schema.build())
                .distributedBy(buckets)
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", freshnessValue(freshness))
                .build();
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
