package io.lakesync.tiering.columnar.write;

import io.lakesync.tiering.columnar.ArrowBatchRecord;
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
 * The business columns of the Arrow batch an {@link ArrowBatchRecord} lies in, read straight from the vectors'
 * buffers into Parquet column writers: numbers from the data buffer, strings and bytes as slices of the batch's
 * value bytes (copied out of Arrow once per batch into a buffer reused across batches and rounds), without the
 * row view's objects per value ({@code BinaryString}, byte arrays, boxed timestamps). Types without such a
 * reader here (decimals, timestamps, times, fixed-length binary) go through the row view and the column's
 * {@link ValueEncoder}, so every value is written as the row path writes it. Rebinds itself when the record
 * belongs to another batch. Not thread-safe.
 */
final class ArrowColumns {

    /** Writes the value at {@code row} of a bound vector, known not to be null. */
    @FunctionalInterface
    private interface VectorValue {
        void write(ArrowBatchRecord record, int row, ColumnWriter out, int definitionLevel);
    }

    private final DataTypeRoot[] types;
    private final ValueEncoder[] rowEncoders;
    private final VectorValue[] values;
    private final FieldVector[] vectors;
    /** Per column, the batch's value bytes of a string or bytes column. */
    private final byte[][] valueBytes;
    private long batchId = -1;
    private int batchWidth;
    private int present;

    /** {@code rowType}: the lake table's columns; {@code rowEncoders}: one per business column. */
    ArrowColumns(RowType rowType, ValueEncoder[] rowEncoders) {
        this.rowEncoders = rowEncoders;
        this.types = new DataTypeRoot[rowEncoders.length];
        for (int i = 0; i < types.length; i++) {
            types[i] = rowType.getTypeAt(i).getTypeRoot();
        }
        this.values = new VectorValue[rowEncoders.length];
        this.vectors = new FieldVector[rowEncoders.length];
        this.valueBytes = new byte[rowEncoders.length][];
    }

    /** Binds to the record's batch, unless bound to it already. */
    void bind(ArrowBatchRecord record) {
        if (record.batchId() == batchId) {
            return;
        }
        VectorSchemaRoot root = record.vectors();
        batchWidth = root.getFieldVectors().size();
        present = Math.min(batchWidth, values.length);
        for (int i = 0; i < present; i++) {
            vectors[i] = root.getVector(i);
            values[i] = bind(i, vectors[i]);
        }
        batchId = record.batchId();
    }

    /** Columns of the bound batch. */
    int batchWidth() {
        return batchWidth;
    }

    /** Business columns the batch holds; the lake table's further columns are null. */
    int present() {
        return present;
    }

    boolean isNull(int column, int row) {
        return vectors[column].isNull(row);
    }

    void write(int column, ArrowBatchRecord record, ColumnWriter out, int definitionLevel) {
        values[column].write(record, record.rowId(), out, definitionLevel);
    }

    private VectorValue bind(int column, FieldVector vector) {
        ArrowBuf data = vector.getDataBuffer();
        switch (types[column]) {
            case CHAR, VARCHAR, BINARY, VARBINARY -> {
                if (vector instanceof BaseVariableWidthVector variable) {
                    byte[] bytes = batchBytes(column, variable);
                    return (record, row, out, dl) -> {
                        int start = variable.getStartOffset(row);
                        out.write(Binary.fromReusedByteArray(bytes, start, variable.getEndOffset(row) - start), 0, dl);
                    };
                }
            }
            case BIGINT -> {
                if (vector instanceof BigIntVector) {
                    return (record, row, out, dl) -> out.write(data.getLong((long) row * Long.BYTES), 0, dl);
                }
            }
            case INTEGER, DATE -> {
                if (vector instanceof IntVector || vector instanceof DateDayVector) {
                    return (record, row, out, dl) -> out.write(data.getInt((long) row * Integer.BYTES), 0, dl);
                }
            }
            case SMALLINT -> {
                if (vector instanceof SmallIntVector) {
                    return (record, row, out, dl) -> out.write((int) data.getShort((long) row * Short.BYTES), 0, dl);
                }
            }
            case TINYINT -> {
                if (vector instanceof TinyIntVector) {
                    return (record, row, out, dl) -> out.write((int) data.getByte(row), 0, dl);
                }
            }
            case BOOLEAN -> {
                if (vector instanceof BitVector bits) {
                    return (record, row, out, dl) -> out.write(bits.get(row) != 0, 0, dl);
                }
            }
            case FLOAT -> {
                if (vector instanceof Float4Vector) {
                    return (record, row, out, dl) -> out.write(data.getFloat((long) row * Float.BYTES), 0, dl);
                }
            }
            case DOUBLE -> {
                if (vector instanceof Float8Vector) {
                    return (record, row, out, dl) -> out.write(data.getDouble((long) row * Double.BYTES), 0, dl);
                }
            }
            default -> { }
        }
        ValueEncoder encoder = rowEncoders[column];
        return (record, row, out, dl) -> encoder.write(record.getRow(), column, out, dl);
    }

    /** The column's value bytes of this batch, in a buffer kept for the column's next batches. */
    private byte[] batchBytes(int column, BaseVariableWidthVector vector) {
        int length = vector.getValueCount() == 0 ? 0 : vector.getEndOffset(vector.getValueCount() - 1);
        byte[] bytes = valueBytes[column];
        if (bytes == null || bytes.length < length) {
            bytes = new byte[Math.max(length, bytes == null ? 0 : bytes.length * 2)];
            valueBytes[column] = bytes;
        }
        vector.getDataBuffer().getBytes(0, bytes, 0, length);
        return bytes;
    }
}
