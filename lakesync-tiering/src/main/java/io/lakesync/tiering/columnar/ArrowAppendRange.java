package io.lakesync.tiering.columnar;

import org.apache.fluss.record.LogRecord;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.columnar.ColumnarRow;
import org.apache.fluss.shaded.arrow.org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A contiguous run of rows of one decoded Arrow log batch, all appends in the table's current schema, handed to
 * an {@link AppendRangeSink} at once: rows {@link #firstRow()} (inclusive) to {@link #endRow()} (exclusive) of
 * {@link #vectors()}, row {@code r} holding log offset {@code baseOffset + r}, every row with the batch's commit
 * timestamp. The values of the fallible columns (timestamps, decimals) of every row in the range have been
 * decoded once already, so a writer may read them without failing half-way through. One instance is reused for
 * every range the reader hands out; it is valid only during the sink's call.
 */
public final class ArrowAppendRange {

    private VectorSchemaRoot vectors;
    private long batchId;
    private ColumnarRow rowView;
    private LogRecord batchRecord;
    private long baseOffset;
    private long timestamp;
    private int firstRow;
    private int endRow;

    /**
     * Points this range at rows {@code [firstRow, endRow)} of the batch in {@code vectors}; {@code batchRecord}:
     * one record of the batch, its row a view over the vectors that this range moves from row to row.
     */
    void moveTo(
            VectorSchemaRoot vectors,
            long batchId,
            LogRecord batchRecord,
            long baseOffset,
            long timestamp,
            int firstRow,
            int endRow) {
        this.vectors = vectors;
        this.batchId = batchId;
        this.batchRecord = batchRecord;
        this.rowView = (ColumnarRow) batchRecord.getRow();
        this.baseOffset = baseOffset;
        this.timestamp = timestamp;
        this.firstRow = firstRow;
        this.endRow = endRow;
    }

    /** The batch's column vectors, in the order of the table's columns. */
    public VectorSchemaRoot vectors() {
        return vectors;
    }

    /** Identifies the batch the vectors hold, as {@link ArrowBatchRecord#batchId()} does. */
    public long batchId() {
        return batchId;
    }

    public int firstRow() {
        return firstRow;
    }

    /** The row after the range's last one. */
    public int endRow() {
        return endRow;
    }

    public int rowCount() {
        return endRow - firstRow;
    }

    /** The log offset of row {@code row} of the vectors. */
    public long offsetOf(int row) {
        return baseOffset + row;
    }

    /** The batch's commit timestamp, every row's {@code __timestamp}. */
    public long timestamp() {
        return timestamp;
    }

    /** A row view at row {@code row}: the same object for every row, moved there (valid until the next call). */
    public InternalRow rowAt(int row) {
        rowView.setRowId(row);
        return rowView;
    }

    /**
     * One record of the batch, for what all rows of a bucket share (its partition); its row is the view of
     * {@link #rowAt}, at whichever row it was last moved to.
     */
    public LogRecord batchRecord() {
        return batchRecord;
    }
}
