package io.lakesync.tiering.columnar;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.shaded.arrow.org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A record of a decoded Arrow batch that also shows where it lies: the batch's vectors (in the table's current
 * schema) and its row in them, so a writer can read the values straight from the Arrow buffers instead of
 * through the row view. One instance is reused for every record the reader hands out; like any record of the
 * columnar reader it is valid only during the sink's call. {@link #batchId()} changes whenever the vectors hold
 * another batch, which tells a writer when to rebind to them.
 */
public final class ArrowBatchRecord implements LogRecord {

    /** Batch ids are unique in the process, so a writer fed by several readers never mistakes one batch for another. */
    private static final AtomicLong BATCH_IDS = new AtomicLong();

    private VectorSchemaRoot vectors;
    private long batchId;
    private LogRecord record;
    private int rowId;

    /** A new batch id, for {@link #moveTo}. */
    public static long nextBatchId() {
        return BATCH_IDS.incrementAndGet();
    }

    /** Points this view at row {@code rowId} of the batch in {@code vectors}; {@code record} is that row's record. */
    public void moveTo(VectorSchemaRoot vectors, long batchId, LogRecord record, int rowId) {
        this.vectors = vectors;
        this.batchId = batchId;
        this.record = record;
        this.rowId = rowId;
    }

    /** The batch's column vectors, in the order of the table's columns. */
    public VectorSchemaRoot vectors() {
        return vectors;
    }

    /** Identifies the batch the vectors hold; a new value means they were loaded with another batch. */
    public long batchId() {
        return batchId;
    }

    /** This record's row in {@link #vectors()}. */
    public int rowId() {
        return rowId;
    }

    @Override
    public long logOffset() {
        return record.logOffset();
    }

    @Override
    public long timestamp() {
        return record.timestamp();
    }

    @Override
    public ChangeType getChangeType() {
        return record.getChangeType();
    }

    @Override
    public InternalRow getRow() {
        return record.getRow();
    }
}
