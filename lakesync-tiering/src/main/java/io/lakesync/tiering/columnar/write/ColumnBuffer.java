package io.lakesync.tiering.columnar.write;

import java.util.Arrays;
import org.apache.paimon.shade.org.apache.parquet.column.ColumnWriter;
import org.apache.paimon.shade.org.apache.parquet.io.api.Binary;
import org.apache.paimon.shade.org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The values of one column of a primary-key table's buffered records, kept in their Parquet physical form in
 * a growable primitive array (strings and bytes in one growing byte slab), so they can be sorted by key and
 * encoded later. It is a {@link ColumnWriter}: a {@link ValueEncoder} writes a record's value into it exactly as
 * it would into Parquet's own column writer, and {@link #writeTo} replays it into one. Only one value per row,
 * no repetition. Not thread-safe.
 */
abstract class ColumnBuffer implements ColumnWriter {

    private static final int INITIAL_ROWS = 1024;

    /** Bit per row: the value is null. */
    private long[] nulls = new long[INITIAL_ROWS / Long.SIZE];

    protected int size;

    static ColumnBuffer of(PrimitiveTypeName physical) {
        return switch (physical) {
            case BOOLEAN, INT32 -> new Ints(physical == PrimitiveTypeName.BOOLEAN);
            case INT64 -> new Longs();
            case FLOAT -> new Floats();
            case DOUBLE -> new Doubles();
            case BINARY, FIXED_LEN_BYTE_ARRAY -> new Binaries();
            default -> throw new IllegalArgumentException("No column buffer for " + physical);
        };
    }

    int size() {
        return size;
    }

    boolean isNull(int row) {
        return (nulls[row >>> 6] & (1L << row)) != 0;
    }

    /** Writes row {@code row}'s value (or null) into a Parquet column writer. */
    final void writeTo(int row, ColumnWriter out, int maxDefinitionLevel) {
        if (isNull(row)) {
            out.writeNull(0, maxDefinitionLevel - 1);
        } else {
            writeValue(row, out, maxDefinitionLevel);
        }
    }

    abstract void writeValue(int row, ColumnWriter out, int definitionLevel);

    /** Row {@code row}'s non-null value in its physical form (an {@code Integer} for INT32 and BOOLEAN). */
    abstract Object value(int row);

    /** Compares two non-null values in the order Paimon's key comparator gives their logical values. */
    abstract int compare(int left, int right);

    /** Bytes held, capacity included. */
    long memory() {
        return (long) nulls.length * Long.BYTES;
    }

    /** Forgets every row, keeping the arrays for the next rows. */
    void clear() {
        Arrays.fill(nulls, 0, Math.min(nulls.length, (size >>> 6) + 1), 0L);
        size = 0;
    }

    /** Makes room for one more row; {@code capacity}: rows the value array holds. */
    protected final void ensureRoom(int capacity) {
        if (size == capacity) {
            grow(Math.max(INITIAL_ROWS, capacity * 2));
        }
        if (size >>> 6 >= nulls.length) {
            nulls = Arrays.copyOf(nulls, nulls.length * 2);
        }
    }

    protected abstract void grow(int capacity);

    @Override
    public void writeNull(int repetitionLevel, int definitionLevel) {
        ensureRoom(capacity());
        nulls[size >>> 6] |= 1L << size;
        appendPlaceholder();
        size++;
    }

    protected abstract int capacity();

    /** What a null row holds in the value array, so values stay at their row index. */
    protected abstract void appendPlaceholder();

    @Override
    public void write(int value, int repetitionLevel, int definitionLevel) {
        throw unexpected("int");
    }

    @Override
    public void write(long value, int repetitionLevel, int definitionLevel) {
        throw unexpected("long");
    }

    @Override
    public void write(boolean value, int repetitionLevel, int definitionLevel) {
        throw unexpected("boolean");
    }

    @Override
    public void write(Binary value, int repetitionLevel, int definitionLevel) {
        throw unexpected("binary");
    }

    @Override
    public void write(float value, int repetitionLevel, int definitionLevel) {
        throw unexpected("float");
    }

    @Override
    public void write(double value, int repetitionLevel, int definitionLevel) {
        throw unexpected("double");
    }

    @Override
    public void close() {}

    @Override
    public long getBufferedSizeInMemory() {
        return memory();
    }

    private IllegalStateException unexpected(String kind) {
        return new IllegalStateException("A " + kind + " value for a " + getClass().getSimpleName() + " column");
    }

    /** INT32 values, and BOOLEAN as 0 or 1 (false sorts first, as in Paimon). */
    private static final class Ints extends ColumnBuffer {
        private final boolean booleans;
        private int[] values = new int[0];

        Ints(boolean booleans) {
            this.booleans = booleans;
        }

        @Override
        public void write(int value, int repetitionLevel, int definitionLevel) {
            ensureRoom(values.length);
            values[size++] = value;
        }

        @Override
        public void write(boolean value, int repetitionLevel, int definitionLevel) {
            write(value ? 1 : 0, repetitionLevel, definitionLevel);
        }

        @Override
        void writeValue(int row, ColumnWriter out, int definitionLevel) {
            if (booleans) {
                out.write(values[row] != 0, 0, definitionLevel);
            } else {
                out.write(values[row], 0, definitionLevel);
            }
        }

        @Override
        Object value(int row) {
            return values[row];
        }

        @Override
        int compare(int left, int right) {
            return Integer.compare(values[left], values[right]);
        }

        @Override
        long memory() {
            return super.memory() + (long) values.length * Integer.BYTES;
        }

        @Override
        protected void grow(int capacity) {
            values = Arrays.copyOf(values, capacity);
        }

        @Override
        protected int capacity() {
            return values.length;
        }

        @Override
        protected void appendPlaceholder() {
            values[size] = 0;
        }
    }

    /** INT64 values: longs, timestamps as epoch milli- or microseconds, compact decimals unscaled. */
    private static final class Longs extends ColumnBuffer {
        private long[] values = new long[0];

        @Override
        public void write(long value, int repetitionLevel, int definitionLevel) {
            ensureRoom(values.length);
            values[size++] = value;
        }

        @Override
        void writeValue(int row, ColumnWriter out, int definitionLevel) {
            out.write(values[row], 0, definitionLevel);
        }

        @Override
        Object value(int row) {
            return values[row];
        }

        @Override
        int compare(int left, int right) {
            return Long.compare(values[left], values[right]);
        }

        @Override
        long memory() {
            return super.memory() + (long) values.length * Long.BYTES;
        }

        @Override
        protected void grow(int capacity) {
            values = Arrays.copyOf(values, capacity);
        }

        @Override
        protected int capacity() {
            return values.length;
        }

        @Override
        protected void appendPlaceholder() {
            values[size] = 0L;
        }
    }

    /** FLOAT values (never a key: Paimon compares them differently from their bits). */
    private static final class Floats extends ColumnBuffer {
        private float[] values = new float[0];

        @Override
        public void write(float value, int repetitionLevel, int definitionLevel) {
            ensureRoom(values.length);
            values[size++] = value;
        }

        @Override
        void writeValue(int row, ColumnWriter out, int definitionLevel) {
            out.write(values[row], 0, definitionLevel);
        }

        @Override
        Object value(int row) {
            return values[row];
        }

        @Override
        int compare(int left, int right) {
            throw new UnsupportedOperationException("FLOAT is not a sortable key column");
        }

        @Override
        long memory() {
            return super.memory() + (long) values.length * Float.BYTES;
        }

        @Override
        protected void grow(int capacity) {
            values = Arrays.copyOf(values, capacity);
        }

        @Override
        protected int capacity() {
            return values.length;
        }

        @Override
        protected void appendPlaceholder() {
            values[size] = 0f;
        }
    }

    /** DOUBLE values (never a key). */
    private static final class Doubles extends ColumnBuffer {
        private double[] values = new double[0];

        @Override
        public void write(double value, int repetitionLevel, int definitionLevel) {
            ensureRoom(values.length);
            values[size++] = value;
        }

        @Override
        void writeValue(int row, ColumnWriter out, int definitionLevel) {
            out.write(values[row], 0, definitionLevel);
        }

        @Override
        Object value(int row) {
            return values[row];
        }

        @Override
        int compare(int left, int right) {
            throw new UnsupportedOperationException("DOUBLE is not a sortable key column");
        }

        @Override
        long memory() {
            return super.memory() + (long) values.length * Double.BYTES;
        }

        @Override
        protected void grow(int capacity) {
            values = Arrays.copyOf(values, capacity);
        }

        @Override
        protected int capacity() {
            return values.length;
        }

        @Override
        protected void appendPlaceholder() {
            values[size] = 0d;
        }
    }

    /**
     * BINARY and FIXED_LEN_BYTE_ARRAY values, copied into one growing slab; row {@code i} spans
     * {@code [ends[i-1], ends[i])}. Replayed as constant slices of the slab: a slab is never written over, only
     * replaced by a larger copy, so Parquet may keep the slices (dictionary, statistics) until the file ends.
     */
    private static final class Binaries extends ColumnBuffer {
        private int[] ends = new int[0];
        private byte[] slab = new byte[0];

        @Override
        public void write(Binary value, int repetitionLevel, int definitionLevel) {
            ensureRoom(ends.length);
            int start = start(size);
            int length = value.length();
            if (slab.length - start < length) {
                long needed = (long) start + length;
                long grown = Math.max(needed, Math.max(64 * 1024L, 2L * slab.length));
                if (needed > Integer.MAX_VALUE - 8) {
                    throw new IllegalStateException("More than 2 GB of string values buffered in one column");
                }
                slab = Arrays.copyOf(slab, (int) Math.min(grown, Integer.MAX_VALUE - 8));
            }
            value.toByteBuffer().get(slab, start, length);
            ends[size++] = start + length;
        }

        private int start(int row) {
            return row == 0 ? 0 : ends[row - 1];
        }

        @Override
        void writeValue(int row, ColumnWriter out, int definitionLevel) {
            int start = start(row);
            out.write(Binary.fromConstantByteArray(slab, start, ends[row] - start), 0, definitionLevel);
        }

        @Override
        Object value(int row) {
            return Arrays.copyOfRange(slab, start(row), ends[row]);
        }

        /** Unsigned bytes, then length: {@code BinaryString#compareTo}. */
        @Override
        int compare(int left, int right) {
            int leftStart = start(left);
            int rightStart = start(right);
            return Arrays.compareUnsigned(slab, leftStart, ends[left], slab, rightStart, ends[right]);
        }

        @Override
        long memory() {
            return super.memory() + (long) ends.length * Integer.BYTES + slab.length;
        }

        @Override
        void clear() {
            super.clear();
            // A new slab: the finished files' Parquet writers may still hold slices of the old one until closed.
            slab = new byte[Math.min(slab.length, 1 << 20)];
        }

        @Override
        protected void grow(int capacity) {
            ends = Arrays.copyOf(ends, capacity);
        }

        @Override
        protected int capacity() {
            return ends.length;
        }

        @Override
        protected void appendPlaceholder() {
            ends[size] = start(size);
        }
    }
}
