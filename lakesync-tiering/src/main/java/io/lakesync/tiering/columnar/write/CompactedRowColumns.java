package io.lakesync.tiering.columnar.write;

import javax.annotation.Nullable;
import org.apache.fluss.memory.MemorySegment;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.row.compacted.CompactedRow;
import org.apache.fluss.row.compacted.CompactedRowReader;
import org.apache.paimon.format.parquet.ParquetSchemaConverter;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeChecks;
import org.apache.paimon.types.RowType;

/**
 * Copies a Fluss {@link CompactedRow}, the row format of KV snapshots, into a bucket's {@link ColumnBuffer}s in
 * one pass over its bytes with Fluss's {@link CompactedRowReader}. Through its getters, a compacted row decodes
 * itself whole into a generic row of boxed values and string objects on the first call, which the
 * {@link ValueEncoder}s then unbox and wrap once more per value; here each value goes from the row's bytes into
 * its buffer. Each column is read as Fluss's own deserializer reads its type (the lake column's type is the
 * Fluss column's: {@code LakeTableCheck}) and written in the physical form its {@link ValueEncoder} writes, so
 * the buffers hold the same values either way. Only for rows of exactly the table's business columns (a row of
 * an older schema reaches the writer projected, not as a compacted row). Not thread-safe: one per buffer.
 */
final class CompactedRowColumns {

    /** Reads one non-null value at the reader's position and appends it to the column's buffer. */
    @FunctionalInterface
    private interface FieldCopier {
        void copy(CompactedRowReader reader, ColumnBuffer out);
    }

    private final FieldCopier[] copiers;
    private final CompactedRowReader reader;

    private CompactedRowColumns(FieldCopier[] copiers) {
        this.copiers = copiers;
        this.reader = new CompactedRowReader(copiers.length);
    }

    /** The copier for rows of {@code businessType}, or null when a column's type is not covered. */
    static @Nullable CompactedRowColumns of(RowType businessType) {
        FieldCopier[] copiers = new FieldCopier[businessType.getFieldCount()];
        for (int i = 0; i < copiers.length; i++) {
            copiers[i] = copier(businessType.getTypeAt(i));
            if (copiers[i] == null) {
                return null;
            }
        }
        return new CompactedRowColumns(copiers);
    }

    /** Whether {@link #copy} takes this row: a compacted row of exactly the table's business columns. */
    boolean accepts(InternalRow row) {
        return row instanceof CompactedRow && row.getFieldCount() == copiers.length;
    }

    /** Appends the row's business columns to {@code out[0..]}, nulls included; the caller checked NOT NULL. */
    void copy(CompactedRow row, ColumnBuffer[] out) {
        reader.pointTo(row.getSegment(), row.getOffset(), row.getSizeInBytes());
        for (int i = 0; i < copiers.length; i++) {
            // A null takes no bytes: the next column's value follows.
            if (reader.isNullAt(i)) {
                out[i].writeNull(0, 0);
            } else {
                copiers[i].copy(reader, out[i]);
            }
        }
    }

    private static @Nullable FieldCopier copier(DataType type) {
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> (reader, out) -> out.write(reader.readBoolean(), 0, 1);
            case TINYINT -> (reader, out) -> out.write((int) reader.readByte(), 0, 1);
            case SMALLINT -> (reader, out) -> out.write((int) reader.readShort(), 0, 1);
            case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE -> (reader, out) -> out.write(reader.readInt(), 0, 1);
            case BIGINT -> (reader, out) -> out.write(reader.readLong(), 0, 1);
            case FLOAT -> (reader, out) -> out.write(reader.readFloat(), 0, 1);
            case DOUBLE -> (reader, out) -> out.write(reader.readDouble(), 0, 1);
            case CHAR, VARCHAR -> (reader, out) -> copyString(reader.readString(), out);
            case BINARY, VARBINARY -> (reader, out) -> {
                byte[] bytes = reader.readBytes();
                out.writeBytes(bytes, 0, bytes.length);
            };
            case DECIMAL -> decimal(DataTypeChecks.getPrecision(type), DataTypeChecks.getScale(type));
            case TIMESTAMP_WITHOUT_TIME_ZONE -> timestamp(DataTypeChecks.getPrecision(type), false);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> timestamp(DataTypeChecks.getPrecision(type), true);
            default -> null;
        };
    }

    /** The string's bytes straight from the row's heap segment (a compacted row is one segment). */
    private static void copyString(BinaryString value, ColumnBuffer out) {
        MemorySegment segment = value.getSegments()[0];
        if (segment.isOffHeap()) {
            byte[] bytes = value.toBytes();
            out.writeBytes(bytes, 0, bytes.length);
        } else {
            out.writeBytes(segment.getHeapMemory(), value.getOffset(), value.getSizeInBytes());
        }
    }

    private static @Nullable FieldCopier decimal(int precision, int scale) {
        if (ParquetSchemaConverter.is32BitDecimal(precision)) {
            return (reader, out) -> out.write((int) reader.readDecimal(precision, scale).toUnscaledLong(), 0, 1);
        }
        if (ParquetSchemaConverter.is64BitDecimal(precision)) {
            return (reader, out) -> out.write(reader.readDecimal(precision, scale).toUnscaledLong(), 0, 1);
        }
        int width = ParquetSchemaConverter.computeMinBytesForDecimalPrecision(precision);
        return (reader, out) -> {
            byte[] fixed = ValueEncoder.fixedWidth(reader.readDecimal(precision, scale).toUnscaledBytes(), width);
            out.writeBytes(fixed, 0, fixed.length);
        };
    }

    /** Epoch milliseconds (precision up to 3) or microseconds (up to 6), as the {@link ValueEncoder} stores them. */
    private static @Nullable FieldCopier timestamp(int precision, boolean localZoned) {
        if (precision > 6) {
            return null;
        }
        boolean millis = precision <= 3;
        return (reader, out) -> {
            long epochMillis;
            int nanoOfMillis;
            if (localZoned) {
                TimestampLtz value = reader.readTimestampLtz(precision);
                epochMillis = value.getEpochMillisecond();
                nanoOfMillis = value.getNanoOfMillisecond();
            } else {
                TimestampNtz value = reader.readTimestampNtz(precision);
                epochMillis = value.getMillisecond();
                nanoOfMillis = value.getNanoOfMillisecond();
            }
            out.write(millis ? epochMillis : ValueEncoder.micros(epochMillis, nanoOfMillis), 0, 1);
        };
    }
}
