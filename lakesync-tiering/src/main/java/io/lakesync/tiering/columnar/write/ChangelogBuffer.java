package io.lakesync.tiering.columnar.write;

import java.util.Arrays;
import java.util.stream.IntStream;
import javax.annotation.Nullable;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.compacted.CompactedRow;
import org.apache.paimon.shade.org.apache.parquet.column.ColumnWriter;
import org.apache.paimon.shade.org.apache.parquet.schema.MessageType;
import org.apache.paimon.shade.org.apache.parquet.schema.Type;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;

/**
 * The records of one Paimon bucket of a primary-key table since its last flush, copied column by column into
 * {@link ColumnBuffer}s as they arrive (a record is only valid during its write), with each record's row kind.
 * Row {@code i} is the {@code i}-th record to arrive, so its sequence number is the run's first plus {@code i},
 * until {@link #sortByKey} puts the rows in primary-key order as Paimon's write buffer orders them: by key, and
 * records of one key by sequence number. Not thread-safe.
 */
final class ChangelogBuffer {

    /** Below this many rows a run is sorted by insertion. */
    private static final int INSERTION_SORT_ROWS = 24;

    private final ColumnBuffer[] values;
    private final MessageType schema;
    /** The business columns that are NOT NULL. */
    private final int[] requiredColumns;
    private final int[] keyColumns;
    private final ValueEncoder[] encoders;
    private final int businessFields;
    private final boolean timestampMicros;
    /** The one-pass copy of KV-snapshot rows; null when a column type has none (the getters serve). */
    private final @Nullable CompactedRowColumns compactedRows;
    private byte[] kinds = new byte[1024];
    private int rows;

    /**
     * {@code schema}: the table's columns (business columns, then {@code __bucket}, {@code __offset},
     * {@code __timestamp}); {@code encoders}: one per business column, of {@code businessType};
     * {@code keyColumns}: the positions of Paimon's key (the primary key without partition columns) among the
     * table's columns.
     */
    ChangelogBuffer(
            MessageType schema,
            ValueEncoder[] encoders,
            RowType businessType,
            boolean timestampMicros,
            int[] keyColumns) {
        this.schema = schema;
        this.values = new ColumnBuffer[schema.getFieldCount()];
        for (int i = 0; i < values.length; i++) {
            values[i] = ColumnBuffer.of(schema.getType(i).asPrimitiveType().getPrimitiveTypeName());
        }
        this.encoders = encoders;
        this.businessFields = encoders.length;
        this.timestampMicros = timestampMicros;
        this.keyColumns = keyColumns;
        this.compactedRows = CompactedRowColumns.of(businessType);
        this.requiredColumns = IntStream.range(0, businessFields)
                .filter(i -> schema.getType(i).isRepetition(Type.Repetition.REQUIRED))
                .toArray();
    }

    /** Copies one record of Fluss bucket {@code bucket} in, with {@code kind} as Paimon's row kind. */
    void append(LogRecord record, RowKind kind, int bucket, String tableName) {
        InternalRow row = record.getRow();
        int present = row.getFieldCount();
        if (present > businessFields) {
            throw new IllegalStateException("The Fluss record has " + present + " columns but the lake table "
                    + tableName + " only " + businessFields + ": the lake schema is not yet synchronized.");
        }
        // Checked before any column takes a value, so a rejected record leaves the columns aligned.
        for (int column : requiredColumns) {
            if (column >= present || row.isNullAt(column)) {
                throw new IllegalArgumentException("Column '" + schema.getType(column).getName() + "' of the lake "
                        + "table " + tableName + " is NOT NULL but the record at offset " + record.logOffset()
                        + " holds null.");
            }
        }
        if (compactedRows != null && compactedRows.accepts(row)) {
            compactedRows.copy((CompactedRow) row, values);
        } else {
            for (int i = 0; i < businessFields; i++) {
                if (i >= present || row.isNullAt(i)) {
                    values[i].writeNull(0, 0);
                } else {
                    encoders[i].write(row, i, values[i], 1);
                }
            }
        }
        values[businessFields].write(bucket, 0, 1);
        values[businessFields + 1].write(record.logOffset(), 0, 1);
        values[businessFields + 2].write(
                timestampMicros ? Math.multiplyExact(record.timestamp(), 1000L) : record.timestamp(), 0, 1);
        if (rows == kinds.length) {
            kinds = Arrays.copyOf(kinds, rows * 2);
        }
        kinds[rows++] = kind.toByteValue();
    }

    int rows() {
        return rows;
    }

    RowKind kind(int row) {
        return RowKind.fromByteValue(kinds[row]);
    }

    ColumnBuffer column(int column) {
        return values[column];
    }

    /** Writes row {@code row}'s value of table column {@code column} into a Parquet column writer. */
    void writeTo(int row, int column, ColumnWriter out, int maxDefinitionLevel) {
        values[column].writeTo(row, out, maxDefinitionLevel);
    }

    /** Bytes held, capacity included. */
    long memory() {
        long bytes = kinds.length;
        for (ColumnBuffer value : values) {
            bytes += value.memory();
        }
        return bytes;
    }

    void clear() {
        for (ColumnBuffer value : values) {
            value.clear();
        }
        rows = 0;
    }

    /** Whether two rows hold the same key. */
    boolean sameKey(int left, int right) {
        return compareKeys(left, right) == 0;
    }

    /**
     * Puts the rows in key order, rows of one key in arrival (sequence) order (a stable sort), and returns for
     * each row its position in arrival order, from which its sequence number follows. Row numbers before the
     * call no longer hold.
     */
    int[] sortByKey() {
        int[] order = keyColumns.length == 1 ? values[keyColumns[0]].sortedRows() : null;
        if (order == null) {
            order = new int[rows];
            for (int i = 0; i < rows; i++) {
                order[i] = i;
            }
            mergeSort(order, Arrays.copyOf(order, rows), 0, rows);
        }
        for (ColumnBuffer value : values) {
            value.reorder(order);
        }
        byte[] sortedKinds = new byte[kinds.length];
        for (int i = 0; i < rows; i++) {
            sortedKinds[i] = kinds[order[i]];
        }
        kinds = sortedKinds;
        return order;
    }

    /** Sorts {@code target[from, to)}; {@code source} holds the same values on entry and serves as scratch. */
    private void mergeSort(int[] target, int[] source, int from, int to) {
        if (to - from <= INSERTION_SORT_ROWS) {
            for (int i = from + 1; i < to; i++) {
                int row = target[i];
                int j = i - 1;
                while (j >= from && compareKeys(target[j], row) > 0) {
                    target[j + 1] = target[j];
                    j--;
                }
                target[j + 1] = row;
            }
            return;
        }
        int middle = (from + to) >>> 1;
        mergeSort(source, target, from, middle);
        mergeSort(source, target, middle, to);
        if (compareKeys(source[middle - 1], source[middle]) <= 0) {
            System.arraycopy(source, from, target, from, to - from);
            return;
        }
        for (int i = from, left = from, right = middle; i < to; i++) {
            if (right >= to || (left < middle && compareKeys(source[left], source[right]) <= 0)) {
                target[i] = source[left++];
            } else {
                target[i] = source[right++];
            }
        }
    }

    private int compareKeys(int left, int right) {
        for (int column : keyColumns) {
            int compared = values[column].compare(left, right);
            if (compared != 0) {
                return compared;
            }
        }
        return 0;
    }
}
