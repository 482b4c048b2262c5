package io.lakesync.tiering.columnar.write;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntToLongFunction;
import javax.annotation.Nullable;
import org.apache.paimon.shade.org.apache.parquet.column.ColumnWriter;
import org.apache.paimon.shade.org.apache.parquet.io.api.Binary;
import org.apache.paimon.shade.org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The values of one column of a primary-key table's buffered records, kept in their Parquet physical form in
 * a growable primitive array (strings and bytes in byte pages), so they can be sorted by key and
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
            case BOOLEAN, INT32, FLOAT -> new Ints(physical);
            case INT64, DOUBLE -> new Longs(physical == PrimitiveTypeName.DOUBLE);
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

    /**
     * The rows in the order of {@link #compare}, rows of equal values in row order (a stable sort), or null when
     * this column leaves the sort to {@link #compare}.
     */
    @Nullable
    int[] sortedRows() {
        return null;
    }

    /**
     * {@link #sortedRows} of whole numbers: when their values span less than 2^32, each row is packed with its
     * value's distance from the smallest into one long and the longs are sorted as primitives, far cheaper than
     * sorting row numbers through {@link #compare} (which reads the values at random). The row number in the low
     * bits makes equal values keep row order. Null for a wider span.
     */
    protected final @Nullable int[] sortedByNumber(IntToLongFunction value) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int row = 0; row < size; row++) {
            long v = value.applyAsLong(row);
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        if (size > 0 && Long.compareUnsigned(max - min, 1L << 32) >= 0) {
            return null;
        }
        long[] packed = new long[size];
        for (int row = 0; row < size; row++) {
            // The distance shifted into [-2^31, 2^31), so that signed order of the longs is the values' order.
            packed[row] = ((value.applyAsLong(row) - min - (1L << 31)) << 32) | row;
        }
        Arrays.sort(packed);
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = (int) packed[i];
        }
        return order;
    }

    /**
     * Whether the first {@code limit} non-null values of rows {@code [0, rows)} are all different from each other,
     * and at least {@code minimum} were compared: by their physical form, what a Parquet dictionary keys them by.
     */
    boolean allDistinct(int rows, int minimum, int limit) {
        Set<Object> seen = new HashSet<>();
        for (int row = 0; row < rows && seen.size() < limit; row++) {
            if (!isNull(row)) {
                Object value = value(row);
                if (!seen.add(value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : value)) {
                    return false;
                }
            }
        }
        return seen.size() >= minimum;
    }

    /** Bytes held, capacity included. */
    long memory() {
        return (long) nulls.length * Long.BYTES;
    }

    /**
     * Puts the rows in {@code order}: row {@code i} becomes what row {@code order[i]} was. {@code order} is a
     * permutation of all rows. Done once, column by column, before a sorted run is encoded, so the encoder reads
     * every column front to back: replayed in key order straight from arrival order, each value was a cache
     * miss in the middle of Parquet's work (a third of the flush's samples); gathered in a tight loop, the
     * misses overlap. The arrays keep their capacity, so {@link #memory()} is unchanged.
     */
    final void reorder(int[] order) {
        long[] sortedNulls = new long[nulls.length];
        for (int i = 0; i < order.length; i++) {
            int row = order[i];
            if ((nulls[row >>> 6] & (1L << row)) != 0) {
                sortedNulls[i >>> 6] |= 1L << i;
            }
        }
        nulls = sortedNulls;
        reorderValues(order);
    }

    /** {@link #reorder} of the value array; null rows' placeholders may move anywhere. */
    protected abstract void reorderValues(int[] order);

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

    /** Appends a BINARY value copied from {@code source[offset, offset + length)}, without a {@link Binary}. */
    void writeBytes(byte[] source, int offset, int length) {
        throw unexpected("binary");
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

    /**
     * INT32 values, BOOLEAN as 0 or 1 (false sorts first, as in Paimon), FLOAT as its bits (never a key: Paimon
     * compares floats by value).
     */
    private static final class Ints extends ColumnBuffer {
        private final PrimitiveTypeName physical;
        private int[] values = new int[0];

        Ints(PrimitiveTypeName physical) {
            this.physical = physical;
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
        public void write(float value, int repetitionLevel, int definitionLevel) {
            write(Float.floatToRawIntBits(value), repetitionLevel, definitionLevel);
        }

        @Override
        void writeValue(int row, ColumnWriter out, int definitionLevel) {
            switch (physical) {
                case BOOLEAN -> out.write(values[row] != 0, 0, definitionLevel);
                case FLOAT -> out.write(Float.intBitsToFloat(values[row]), 0, definitionLevel);
                default -> out.write(values[row], 0, definitionLevel);
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
        @Nullable
        int[] sortedRows() {
            return physical == PrimitiveTypeName.FLOAT ? null : sortedByNumber(row -> values[row]);
        }

        @Override
        protected void reorderValues(int[] order) {
            int[] sorted = new int[values.length];
            for (int i = 0; i < order.length; i++) {
                sorted[i] = values[order[i]];
            }
            values = sorted;
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

    /**
     * INT64 values (longs, timestamps as epoch milli- or microseconds, compact decimals unscaled), DOUBLE as its
     * bits (never a key).
     */
    private static final class Longs extends ColumnBuffer {
        private final boolean doubles;
        private long[] values = new long[0];

        Longs(boolean doubles) {
            this.doubles = doubles;
        }

        @Override
        public void write(long value, int repetitionLevel, int definitionLevel) {
            ensureRoom(values.length);
            values[size++] = value;
        }

        @Override
        public void write(double value, int repetitionLevel, int definitionLevel) {
            write(Double.doubleToRawLongBits(value), repetitionLevel, definitionLevel);
        }

        @Override
        void writeValue(int row, ColumnWriter out, int definitionLevel) {
            if (doubles) {
                out.write(Double.longBitsToDouble(values[row]), 0, definitionLevel);
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
            return Long.compare(values[left], values[right]);
        }

        @Override
        @Nullable
        int[] sortedRows() {
            return doubles ? null : sortedByNumber(row -> values[row]);
        }

        @Override
        protected void reorderValues(int[] order) {
            long[] sorted = new long[values.length];
            for (int i = 0; i < order.length; i++) {
                sorted[i] = values[order[i]];
            }
            values = sorted;
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

    /**
     * BINARY and FIXED_LEN_BYTE_ARRAY values, copied into byte pages that double up to {@link #PAGE_BYTES} (a
     * longer value gets a page of its own), so no value is copied again as the column grows. Replayed as constant slices of the
     * pages: a page is never written over while the buffer holds it, so Parquet may keep the slices
     * (dictionary, statistics) until its file ends.
     */
    private static final class Binaries extends ColumnBuffer {
        private static final int FIRST_PAGE_BYTES = 4096;
        private static final int PAGE_BYTES = 1 << 20;

        private final List<byte[]> pages = new ArrayList<>();
        /** Per row, its page index (high 32 bits) and offset in the page (low 32 bits). */
        private long[] addresses = new long[0];
        private int[] lengths = new int[0];
        private byte[] page = new byte[0];
        private int pageUsed;

        @Override
        public void write(Binary value, int repetitionLevel, int definitionLevel) {
            ensureRoom(lengths.length);
            int length = value.length();
            int offset = reserve(length);
            value.toByteBuffer().get(page, offset, length);
        }

        @Override
        void writeBytes(byte[] source, int offset, int length) {
            ensureRoom(lengths.length);
            int at = reserve(length);
            System.arraycopy(source, offset, page, at, length);
        }

        /** Appends row {@code size}: the value's room at the end of the last page; returns its offset there. */
        private int reserve(int length) {
            if (pages.isEmpty() || page.length - pageUsed < length) {
                page = new byte[Math.max(length, Math.min(PAGE_BYTES, Math.max(FIRST_PAGE_BYTES, 2 * page.length)))];
                pages.add(page);
                pageUsed = 0;
            }
            int offset = pageUsed;
            addresses[size] = ((long) (pages.size() - 1) << 32) | offset;
            lengths[size++] = length;
            pageUsed += length;
            return offset;
        }

        private byte[] page(int row) {
            return pages.get((int) (addresses[row] >>> 32));
        }

        private static int offset(long address) {
            return (int) address;
        }

        @Override
        void writeValue(int row, ColumnWriter out, int definitionLevel) {
            out.write(Binary.fromConstantByteArray(page(row), offset(addresses[row]), lengths[row]), 0, definitionLevel);
        }

        @Override
        Object value(int row) {
            int offset = offset(addresses[row]);
            return Arrays.copyOfRange(page(row), offset, offset + lengths[row]);
        }

        /** Unsigned bytes, then length: {@code BinaryString#compareTo}. */
        @Override
        int compare(int left, int right) {
            int leftOffset = offset(addresses[left]);
            int rightOffset = offset(addresses[right]);
            return Arrays.compareUnsigned(
                    page(left), leftOffset, leftOffset + lengths[left],
                    page(right), rightOffset, rightOffset + lengths[right]);
        }

        /** Also copies the bytes into new pages in the new order, so the encoder reads the pages front to back. */
        @Override
        protected void reorderValues(int[] order) {
            List<byte[]> arrivalPages = new ArrayList<>(pages);
            long[] arrivalAddresses = addresses;
            int[] arrivalLengths = lengths;
            addresses = new long[arrivalAddresses.length];
            lengths = new int[arrivalLengths.length];
            pages.clear();
            page = new byte[0];
            pageUsed = 0;
            size = 0;
            for (int row : order) {
                long address = arrivalAddresses[row];
                int length = arrivalLengths[row];
                int offset = reserve(length);
                if (length > 0) {
                    System.arraycopy(arrivalPages.get((int) (address >>> 32)), offset(address), page, offset, length);
                }
            }
        }

        @Override
        long memory() {
            long bytes = super.memory() + (long) lengths.length * (Integer.BYTES + Long.BYTES);
            for (byte[] held : pages) {
                bytes += held.length;
            }
            return bytes;
        }

        @Override
        void clear() {
            super.clear();
            // New pages: the finished files' Parquet writers may still hold slices of these until closed.
            pages.clear();
            page = new byte[0];
            pageUsed = 0;
        }

        @Override
        protected void grow(int capacity) {
            addresses = Arrays.copyOf(addresses, capacity);
            lengths = Arrays.copyOf(lengths, capacity);
        }

        @Override
        protected int capacity() {
            return lengths.length;
        }

        @Override
        protected void appendPlaceholder() {
            addresses[size] = 0L;
            lengths[size] = 0;
        }
    }
}
