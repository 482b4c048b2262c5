package io.lakesync.tiering.columnar.write;

import java.util.Arrays;
import javax.annotation.Nullable;
import org.apache.fluss.memory.MemorySegment;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.paimon.format.parquet.ParquetSchemaConverter;
import org.apache.paimon.shade.org.apache.parquet.column.ColumnWriter;
import org.apache.paimon.shade.org.apache.parquet.io.api.Binary;
import org.apache.paimon.shade.org.apache.parquet.schema.PrimitiveType;
import org.apache.paimon.shade.org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeChecks;
import org.apache.paimon.types.DecimalType;

/**
 * Writes one non-null value of a Fluss row into a Parquet column writer, in the physical layout Paimon 1.3.1's
 * Parquet writer gives the column's type (so Paimon's, Flink's and Fluss's readers read it back unchanged):
 * small integers, dates and times as INT32; timestamps of precision up to 3 as epoch milliseconds and up to 6
 * as epoch microseconds in INT64; decimals as their unscaled INT32 / INT64 / fixed-length big-endian bytes;
 * strings and bytes as BINARY without a copy of the value.
 */
@FunctionalInterface
interface ValueEncoder {

    void write(InternalRow row, int pos, ColumnWriter out, int definitionLevel);

    /**
     * The encoder for a column of {@code type} stored as {@code parquetType}, or null when the columnar write
     * does not cover it (the table then keeps the row writer).
     */
    static @Nullable ValueEncoder of(DataType type, PrimitiveType parquetType) {
        PrimitiveTypeName physical = parquetType.getPrimitiveTypeName();
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> physical == PrimitiveTypeName.BOOLEAN
                    ? (row, pos, out, dl) -> out.write(row.getBoolean(pos), 0, dl)
                    : null;
            case TINYINT -> physical == PrimitiveTypeName.INT32
                    ? (row, pos, out, dl) -> out.write((int) row.getByte(pos), 0, dl)
                    : null;
            case SMALLINT -> physical == PrimitiveTypeName.INT32
                    ? (row, pos, out, dl) -> out.write((int) row.getShort(pos), 0, dl)
                    : null;
            case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE -> physical == PrimitiveTypeName.INT32
                    ? (row, pos, out, dl) -> out.write(row.getInt(pos), 0, dl)
                    : null;
            case BIGINT -> physical == PrimitiveTypeName.INT64
                    ? (row, pos, out, dl) -> out.write(row.getLong(pos), 0, dl)
                    : null;
            case FLOAT -> physical == PrimitiveTypeName.FLOAT
                    ? (row, pos, out, dl) -> out.write(row.getFloat(pos), 0, dl)
                    : null;
            case DOUBLE -> physical == PrimitiveTypeName.DOUBLE
                    ? (row, pos, out, dl) -> out.write(row.getDouble(pos), 0, dl)
                    : null;
            case CHAR, VARCHAR -> physical == PrimitiveTypeName.BINARY
                    ? (row, pos, out, dl) -> out.write(binary(row.getString(pos)), 0, dl)
                    : null;
            case BINARY, VARBINARY -> physical == PrimitiveTypeName.BINARY
                    ? (row, pos, out, dl) -> out.write(Binary.fromConstantByteArray(row.getBytes(pos)), 0, dl)
                    : null;
            case DECIMAL -> decimal((DecimalType) type, physical);
            case TIMESTAMP_WITHOUT_TIME_ZONE -> timestamp(DataTypeChecks.getPrecision(type), physical, false);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> timestamp(DataTypeChecks.getPrecision(type), physical, true);
            default -> null;
        };
    }

    /** The string's UTF-8 bytes; they are the row's own (Fluss decodes a fresh array per value), so not copied. */
    private static Binary binary(BinaryString value) {
        MemorySegment[] segments = value.getSegments();
        if (segments.length == 1 && !segments[0].isOffHeap()) {
            return Binary.fromConstantByteArray(segments[0].getHeapMemory(), value.getOffset(), value.getSizeInBytes());
        }
        return Binary.fromConstantByteArray(value.toBytes());
    }

    private static @Nullable ValueEncoder decimal(DecimalType type, PrimitiveTypeName physical) {
        int precision = type.getPrecision();
        int scale = type.getScale();
        if (ParquetSchemaConverter.is32BitDecimal(precision)) {
            return physical == PrimitiveTypeName.INT32
                    ? (row, pos, out, dl) -> out.write((int) row.getDecimal(pos, precision, scale).toUnscaledLong(), 0, dl)
                    : null;
        }
        if (ParquetSchemaConverter.is64BitDecimal(precision)) {
            return physical == PrimitiveTypeName.INT64
                    ? (row, pos, out, dl) -> out.write(row.getDecimal(pos, precision, scale).toUnscaledLong(), 0, dl)
                    : null;
        }
        if (physical != PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
            return null;
        }
        int width = ParquetSchemaConverter.computeMinBytesForDecimalPrecision(precision);
        return (row, pos, out, dl) -> {
            byte[] unscaled = row.getDecimal(pos, precision, scale).toUnscaledBytes();
            out.write(Binary.fromConstantByteArray(fixedWidth(unscaled, width)), 0, dl);
        };
    }

    /** A decimal's unscaled big-endian two's complement bytes, sign-extended to the column's fixed width. */
    static byte[] fixedWidth(byte[] unscaled, int width) {
        if (unscaled.length == width) {
            return unscaled;
        }
        byte[] fixed = new byte[width];
        Arrays.fill(fixed, 0, width - unscaled.length, unscaled[0] < 0 ? (byte) -1 : 0);
        System.arraycopy(unscaled, 0, fixed, width - unscaled.length, unscaled.length);
        return fixed;
    }

    private static @Nullable ValueEncoder timestamp(int precision, PrimitiveTypeName physical, boolean localZoned) {
        if (precision > 6 || physical != PrimitiveTypeName.INT64) {
            return null; // Paimon stores these as INT96
        }
        boolean millis = precision <= 3;
        if (localZoned) {
            return (row, pos, out, dl) -> {
                TimestampLtz value = row.getTimestampLtz(pos, precision);
                out.write(millis ? value.getEpochMillisecond() : micros(value.getEpochMillisecond(), value.getNanoOfMillisecond()), 0, dl);
            };
        }
        return (row, pos, out, dl) -> {
            TimestampNtz value = row.getTimestampNtz(pos, precision);
            out.write(millis ? value.getMillisecond() : micros(value.getMillisecond(), value.getNanoOfMillisecond()), 0, dl);
        };
    }

    /** Epoch microseconds as Paimon's {@code Timestamp#toMicros} computes them. */
    static long micros(long epochMillis, int nanoOfMillis) {
        return Math.multiplyExact(epochMillis, 1000L) + nanoOfMillis / 1000;
    }
}
