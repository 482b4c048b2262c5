package io.lakesync.tiering.columnar.write;

import io.lakesync.tiering.columnar.ArrowAppendRange;
import io.lakesync.tiering.columnar.ArrowBatchRecord;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import javax.annotation.Nullable;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.shaded.arrow.org.apache.arrow.memory.ArrowBuf;
import org.apache.fluss.shaded.arrow.org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.fluss.shaded.arrow.org.apache.arrow.vector.BigIntVector;
import org.apache.fluss.shaded.arrow.org.apache.arrow.vector.BitVector;
import org.apache.fluss.shaded.arrow.org.apache.arrow.vector.DateDayVector;
import org.apache.fluss.shaded.arrow.org.apache.arrow.vector.FieldVector;
import org.apache.fluss.shaded.arrow.org.apache.arrow.vector.Float4Vector;
import org.apache.fluss.shaded.arrow.org.apache.arrow.vector.Float8Vector;
import org.apache.fluss.shaded.arrow.org.apache.arrow.vector.IntVector;
import org.apache.fluss.shaded.arrow.org.apache.arrow.vector.SmallIntVector;
import org.apache.fluss.shaded.arrow.org.apache.arrow.vector.TinyIntVector;
import org.apache.fluss.shaded.arrow.org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.paimon.shade.org.apache.parquet.column.ColumnWriter;
import org.apache.paimon.shade.org.apache.parquet.io.api.Binary;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.RowType;

/**
 * The business columns of an Arrow batch (that of an {@link ArrowBatchRecord} or an {@link ArrowAppendRange}),
 * read into Parquet column writers from plain Java arrays: when it binds to a batch, each column's buffers (validity bits, fixed-width values,
 * string offsets and bytes) are copied out of Arrow once, into arrays kept across batches and rounds, so the
 * per-value reads are array reads instead of Arrow's bounds- and reference-checked buffer reads and vector
 * calls, and no object is made per value but parquet-mr's {@code Binary} slice of a string. Types without such
 * a reader here (decimals, timestamps, times, fixed-length binary) go through the row view and the column's
 * {@link ValueEncoder}, so every value is written as the row path writes it ({@link #readsRowView()}).
 * Rebinding to the batch already bound is free. Not thread-safe.
 */
final class ArrowColumns {

    /** Arrow buffers are little-endian. */
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORTS =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle FLOATS =
            MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle DOUBLES =
            MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int VARIABLE_WIDTH = -1;
    private static final int NOT_COMPARED = 0;

    /**
     * Writes the values of rows {@code [from, to)} of a bound vector, known not to be null, in one loop per column
     * type, so that a column's values reach its Parquet writer without a dispatch per value; {@code rowView}: row
     * {@code from} as a Fluss row, read only by the columns without a vector reader, which are only ever asked for
     * one row.
     */
    @FunctionalInterface
    private interface VectorValues {
        void write(@Nullable InternalRow rowView, int from, int to, ColumnWriter out, int definitionLevel);
    }

    private final DataTypeRoot[] types;
    private final ValueEncoder[] rowEncoders;
    private final VectorValues[] values;
    /** Per column, the bound batch's validity bits, or null when the column has no null in the batch. */
    private final byte[][] validity;
    /** Per column, the arrays the batch's buffers are copied into (validity, values, offsets), reused. */
    private final byte[][] validityBuffers;
    private final byte[][] valueBuffers;
    private final byte[][] offsetBuffers;
    /**
     * Per column, how the bound batch's values are laid out in {@link #valueBuffers}, for {@link #allDistinct}:
     * {@link #VARIABLE_WIDTH} (strings and binaries, with offsets), a fixed width in bytes (4 or 8), or
     * {@link #NOT_COMPARED}.
     */
    private final int[] valueWidths;
    private long batchId = -1;
    private int batchWidth;
    private int present;
    private boolean readsRowView;

    /** {@code rowType}: the lake table's columns; {@code rowEncoders}: one per business column. */
    ArrowColumns(RowType rowType, ValueEncoder[] rowEncoders) {
        this.rowEncoders = rowEncoders;
        this.types = new DataTypeRoot[rowEncoders.length];
        for (int i = 0; i < types.length; i++) {
            types[i] = rowType.getTypeAt(i).getTypeRoot();
        }
        this.values = new VectorValues[rowEncoders.length];
        this.validity = new byte[rowEncoders.length][];
        this.validityBuffers = new byte[rowEncoders.length][];
        this.valueBuffers = new byte[rowEncoders.length][];
        this.offsetBuffers = new byte[rowEncoders.length][];
        this.valueWidths = new int[rowEncoders.length];
    }

    /** Binds to the batch in {@code root}, identified by {@code batchId}, unless bound to it already. */
    void bind(VectorSchemaRoot root, long batchId) {
        if (batchId == this.batchId) {
            return;
        }
        batchWidth = root.getFieldVectors().size();
        present = Math.min(batchWidth, values.length);
        readsRowView = false;
        for (int i = 0; i < present; i++) {
            FieldVector vector = root.getVector(i);
            validity[i] = vector.getNullCount() == 0
                    ? null
                    : copy(vector.getValidityBuffer(), (vector.getValueCount() + 7) / 8, validityBuffers, i);
            values[i] = bind(i, vector);
        }
        this.batchId = batchId;
    }

    /** Columns of the bound batch. */
    int batchWidth() {
        return batchWidth;
    }

    /** Business columns the batch holds; the lake table's further columns are null. */
    int present() {
        return present;
    }

    /** Whether some column of the bound batch is read through the row view rather than from its vector. */
    boolean readsRowView() {
        return readsRowView;
    }

    boolean isNull(int column, int row) {
        return isNull(validity[column], row);
    }

    /** Whether some row of {@code [from, to)} of {@code column} of the bound batch is null. */
    boolean hasNull(int column, int from, int to) {
        byte[] bits = validity[column];
        for (int row = from; bits != null && row < to; row++) {
            if (isNull(bits, row)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isNull(@Nullable byte[] validityBits, int row) {
        return validityBits != null && (validityBits[row >>> 3] & (1 << (row & 7))) == 0;
    }

    /**
     * Writes rows {@code [from, to)} of {@code column} of the bound batch, a null as a null, each run of non-null
     * rows in one call of the column's loop; {@code rowView}: row {@code from}, see {@link VectorValues} (the range
     * is then one row).
     */
    void write(int column, @Nullable InternalRow rowView, int from, int to, ColumnWriter out, int definitionLevel) {
        byte[] bits = validity[column];
        if (bits == null) {
            values[column].write(rowView, from, to, out, definitionLevel);
            return;
        }
        for (int row = from; row < to; ) {
            if (isNull(bits, row)) {
                out.writeNull(0, definitionLevel - 1);
                row++;
                continue;
            }
            int end = row + 1;
            while (end < to && !isNull(bits, end)) {
                end++;
            }
            values[column].write(rowView, row, end, out, definitionLevel);
            row = end;
        }
    }

    /**
     * Whether the non-null values of {@code column} in rows {@code [from, to)} of the bound batch, the first
     * {@code limit} of them, are all different from each other, and at least {@code minimum} were compared. Only
     * strings, binaries and 4- and 8-byte numbers read from their vectors are compared (their bits: what a Parquet
     * dictionary keys them by); any other column is not all distinct.
     */
    boolean allDistinct(int column, int from, int to, int minimum, int limit) {
        int width = column < present ? valueWidths[column] : NOT_COMPARED;
        if (width == NOT_COMPARED) {
            return false;
        }
        int[] rows = new int[Math.min(limit, Math.max(0, to - from))];
        int sampled = 0;
        for (int row = from; row < to && sampled < rows.length; row++) {
            if (!isNull(column, row)) {
                rows[sampled++] = row;
            }
        }
        if (sampled < minimum) {
            return false;
        }
        byte[] data = valueBuffers[column];
        if (width == VARIABLE_WIDTH) {
            return distinctStrings(data, offsetBuffers[column], rows, sampled);
        }
        long[] values = new long[sampled];
        for (int i = 0; i < sampled; i++) {
            values[i] = width == Long.BYTES
                    ? (long) LONGS.get(data, rows[i] * Long.BYTES)
                    : (int) INTS.get(data, rows[i] * Integer.BYTES);
        }
        Arrays.sort(values);
        for (int i = 1; i < sampled; i++) {
            if (values[i] == values[i - 1]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the strings at {@code rows[0..count)} (offsets into {@code bytes}) are all different: an open-addressing
     * table of row numbers keyed by a hash of each string's bytes, compared byte by byte only when hashes meet.
     */
    private static boolean distinctStrings(byte[] bytes, byte[] offsets, int[] rows, int count) {
        int[] slots = new int[Integer.highestOneBit(Math.max(1, count) * 4 - 1) << 1];
        int[] hashes = new int[slots.length];
        int mask = slots.length - 1;
        for (int i = 0; i < count; i++) {
            int start = (int) INTS.get(offsets, rows[i] * 4);
            int end = (int) INTS.get(offsets, rows[i] * 4 + 4);
            int hash = 1;
            for (int b = start; b < end; b++) {
                hash = 31 * hash + bytes[b];
            }
            int slot = (hash ^ (hash >>> 16)) & mask;
            while (slots[slot] != 0) {
                int other = slots[slot] - 1;
                if (hashes[slot] == hash) {
                    int otherStart = (int) INTS.get(offsets, other * 4);
                    int otherEnd = (int) INTS.get(offsets, other * 4 + 4);
                    if (Arrays.equals(bytes, start, end, bytes, otherStart, otherEnd)) {
                        return false;
                    }
                }
                slot = (slot + 1) & mask;
            }
            slots[slot] = rows[i] + 1;
            hashes[slot] = hash;
        }
        return true;
    }

    private VectorValues bind(int column, FieldVector vector) {
        int count = vector.getValueCount();
        valueWidths[column] = switch (types[column]) {
            case CHAR, VARCHAR, BINARY, VARBINARY ->
                    vector instanceof BaseVariableWidthVector ? VARIABLE_WIDTH : NOT_COMPARED;
            case BIGINT -> vector instanceof BigIntVector ? Long.BYTES : NOT_COMPARED;
            case DOUBLE -> vector instanceof Float8Vector ? Double.BYTES : NOT_COMPARED;
            case INTEGER, DATE -> vector instanceof IntVector || vector instanceof DateDayVector
                    ? Integer.BYTES : NOT_COMPARED;
            case FLOAT -> vector instanceof Float4Vector ? Float.BYTES : NOT_COMPARED;
            default -> NOT_COMPARED;
        };
        switch (types[column]) {
            case CHAR, VARCHAR, BINARY, VARBINARY -> {
                if (vector instanceof BaseVariableWidthVector) {
                    byte[] offsets = copy(vector.getOffsetBuffer(), (count + 1) * 4L, offsetBuffers, column);
                    int length = count == 0 ? 0 : (int) INTS.get(offsets, count * 4);
                    byte[] bytes = copy(vector.getDataBuffer(), length, valueBuffers, column);
                    return (rowView, from, to, out, dl) -> {
                        for (int row = from; row < to; row++) {
                            int start = (int) INTS.get(offsets, row * 4);
                            int end = (int) INTS.get(offsets, row * 4 + 4);
                            out.write(Binary.fromReusedByteArray(bytes, start, end - start), 0, dl);
                        }
                    };
                }
            }
            case BIGINT -> {
                if (vector instanceof BigIntVector) {
                    byte[] data = copy(vector.getDataBuffer(), (long) count * Long.BYTES, valueBuffers, column);
                    return (rowView, from, to, out, dl) -> {
                        for (int row = from; row < to; row++) {
                            out.write((long) LONGS.get(data, row * Long.BYTES), 0, dl);
                        }
                    };
                }
            }
            case INTEGER, DATE -> {
                if (vector instanceof IntVector || vector instanceof DateDayVector) {
                    byte[] data = copy(vector.getDataBuffer(), (long) count * Integer.BYTES, valueBuffers, column);
                    return (rowView, from, to, out, dl) -> {
                        for (int row = from; row < to; row++) {
                            out.write((int) INTS.get(data, row * Integer.BYTES), 0, dl);
                        }
                    };
                }
            }
            case SMALLINT -> {
                if (vector instanceof SmallIntVector) {
                    byte[] data = copy(vector.getDataBuffer(), (long) count * Short.BYTES, valueBuffers, column);
                    return (rowView, from, to, out, dl) -> {
                        for (int row = from; row < to; row++) {
                            out.write((int) (short) SHORTS.get(data, row * Short.BYTES), 0, dl);
                        }
                    };
                }
            }
            case TINYINT -> {
                if (vector instanceof TinyIntVector) {
                    byte[] data = copy(vector.getDataBuffer(), count, valueBuffers, column);
                    return (rowView, from, to, out, dl) -> {
                        for (int row = from; row < to; row++) {
                            out.write((int) data[row], 0, dl);
                        }
                    };
                }
            }
            case BOOLEAN -> {
                if (vector instanceof BitVector) {
                    byte[] bits = copy(vector.getDataBuffer(), (count + 7) / 8, valueBuffers, column);
                    return (rowView, from, to, out, dl) -> {
                        for (int row = from; row < to; row++) {
                            out.write((bits[row >>> 3] & (1 << (row & 7))) != 0, 0, dl);
                        }
                    };
                }
            }
            case FLOAT -> {
                if (vector instanceof Float4Vector) {
                    byte[] data = copy(vector.getDataBuffer(), (long) count * Float.BYTES, valueBuffers, column);
                    return (rowView, from, to, out, dl) -> {
                        for (int row = from; row < to; row++) {
                            out.write((float) FLOATS.get(data, row * Float.BYTES), 0, dl);
                        }
                    };
                }
            }
            case DOUBLE -> {
                if (vector instanceof Float8Vector) {
                    byte[] data = copy(vector.getDataBuffer(), (long) count * Double.BYTES, valueBuffers, column);
                    return (rowView, from, to, out, dl) -> {
                        for (int row = from; row < to; row++) {
                            out.write((double) DOUBLES.get(data, row * Double.BYTES), 0, dl);
                        }
                    };
                }
            }
            default -> { }
        }
        ValueEncoder encoder = rowEncoders[column];
        readsRowView = true;
        return (rowView, from, to, out, dl) -> encoder.write(rowView, column, out, dl);
    }

    /** The first {@code length} bytes of {@code buffer}, in the column's array of {@code arrays}, grown if needed. */
    private static byte[] copy(ArrowBuf buffer, long length, byte[][] arrays, int column) {
        int size = Math.toIntExact(length);
        byte[] array = arrays[column];
        if (array == null || array.length < size) {
            array = new byte[Math.max(size, array == null ? 0 : array.length * 2)];
            arrays[column] = array;
        }
        buffer.getBytes(0, array, 0, size);
        return array;
    }
}
