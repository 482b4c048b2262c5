package io.lakesync.tiering.columnar;

import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.record.LogRecordBatch;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.columnar.ColumnarRow;
import org.apache.fluss.shaded.arrow.org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.types.DataTypeRoot;
import org.apache.fluss.types.RowType;
import org.apache.fluss.utils.CloseableIterator;

/**
 * Hands the records of fetched batches to a sink, within one bucket's range: records below the position's
 * fetch offset (a batch fetched from its start when the range starts inside it) are skipped, the position
 * stops at its end offset, and a batch read to its end moves the position to the batch's next offset even
 * when its last offsets hold no record. A batch that fails its checksum or cannot be decoded hands the bucket
 * back to the row path at the offset it reached, which then reports the record as the row path always has.
 *
 * <p>Two ways of handing over a batch decoded in the table's current schema:
 * <ul>
 *   <li>to an {@link AppendRangeSink}, when the table has no primary key (its log holds appends only; Fluss
 *       0.9.1 writes a log table's batches append-only): the rows of the batch inside the range, at once, as one
 *       {@link ArrowAppendRange};
 *   <li>otherwise record by record, each an {@link ArrowBatchRecord}, which also shows the batch's vectors, so a
 *       writer can take the values from the Arrow buffers directly.
 * </ul>
 * A batch in an older schema (projected to the current one) always goes record by record, as plain records; a
 * batch in a newer schema than the one decoded in hands the bucket back.
 *
 * <p>A record's values are decoded lazily, when the sink reads them; values whose decoding can fail (Fluss
 * 0.9.1 rejects some timestamps and decimals) are decoded here first, so such a record reaches the row path
 * instead of failing the lake writer half-way through a row. For a range they are decoded row by row before the
 * range is handed over, which then ends before the first row that fails.
 */
final class BatchConsumer {

    private final int schemaId;
    private final boolean checkCrcs;
    private final boolean appendsOnly;
    private final InternalRow.FieldGetter[] fallibleFields;
    private final ArrowBatchRecord view = new ArrowBatchRecord();
    private final ArrowAppendRange range = new ArrowAppendRange();
    /** Why the last {@link #firstUndecodableRow} stopped before its end, or null. */
    private @Nullable RuntimeException decodeFailure;

    /**
     * {@code rowType}: the table's columns in schema {@code schemaId}, the one records are decoded in, whose
     * fallible ones are decoded before the sink sees a record; {@code appendsOnly}: whether every record of the
     * log is an append (a table without primary key).
     */
    BatchConsumer(RowType rowType, int schemaId, boolean checkCrcs, boolean appendsOnly) {
        this.schemaId = schemaId;
        this.checkCrcs = checkCrcs;
        this.appendsOnly = appendsOnly;
        List<InternalRow.FieldGetter> fallible = new ArrayList<>();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            DataTypeRoot root = rowType.getTypeAt(i).getTypeRoot();
            if (root == DataTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                    || root == DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                    || root == DataTypeRoot.DECIMAL) {
                fallible.add(InternalRow.createFieldGetter(rowType.getTypeAt(i), i));
            }
        }
        this.fallibleFields = fallible.toArray(new InternalRow.FieldGetter[0]);
    }

    /** Returns the number of records handed to the sink. */
    long consume(
            LogPosition position,
            Iterable<LogRecordBatch> batches,
            LogRecordBatch.ReadContext readContext,
            RecordSink sink)
            throws Exception {
        long written = 0;
        for (LogRecordBatch batch : batches) {
            if (!position.reading()) {
                return written;
            }
            if (batch.nextLogOffset() <= position.fetchOffset()) {
                continue;
            }
            if (batch.schemaId() > schemaId) {
                // Decoded in the older schema, its new columns' values would be lost: the row path's schema
                // check stops the round instead.
                position.handBack("the batch at offset " + batch.baseLogOffset() + " was written in schema "
                        + batch.schemaId() + ", newer than the round's " + schemaId);
                return written;
            }
            if (checkCrcs && !batch.isValid()) {
                position.handBack("the batch at offset " + batch.baseLogOffset() + " fails its checksum");
                return written;
            }
            CloseableIterator<LogRecord> records;
            try {
                records = batch.records(readContext);
            } catch (RuntimeException e) {
                position.handBack(undecodable(batch.baseLogOffset(), e));
                return written;
            }
            try (records) {
                LogRecord first = next(records, position);
                if (first != null) {
                    written += appendsOnly
                                    && sink instanceof AppendRangeSink ranges
                                    && first.getRow() instanceof ColumnarRow
                                    && first.getChangeType() == ChangeType.APPEND_ONLY
                            ? handOverRange(position, batch, first, readContext, ranges)
                            : handOverRecords(position, batch, first, records, readContext, sink);
                }
            }
            if (!position.reading()) {
                return written;
            }
            position.advanceTo(Math.min(batch.nextLogOffset(), position.endOffset()));
        }
        return written;
    }

    /**
     * Hands the batch's rows inside the position's range to the sink as one range, up to the first row whose
     * fallible values cannot be decoded, which hands the bucket back. {@code first}: the batch's first record,
     * whose row is a view over the vectors. Returns the rows handed over.
     */
    private long handOverRange(
            LogPosition position,
            LogRecordBatch batch,
            LogRecord first,
            LogRecordBatch.ReadContext readContext,
            AppendRangeSink sink)
            throws Exception {
        VectorSchemaRoot vectors = readContext.getVectorSchemaRoot(batch.schemaId());
        long baseOffset = batch.baseLogOffset();
        int firstRow = (int) Math.max(0, position.fetchOffset() - baseOffset);
        int endRow = (int) Math.min(vectors.getRowCount(), position.endOffset() - baseOffset);
        if (firstRow >= endRow) {
            return 0;
        }
        int decodedEnd = firstUndecodableRow((ColumnarRow) first.getRow(), firstRow, endRow);
        if (decodedEnd > firstRow) {
            long batchId = ArrowBatchRecord.nextBatchId();
            range.moveTo(vectors, batchId, first, baseOffset, batch.commitTimestamp(), firstRow, decodedEnd);
            sink.writeAppends(position.bucket(), range);
            position.advanceTo(baseOffset + decodedEnd);
        }
        if (decodeFailure != null) {
            position.handBack(undecodable(baseOffset + decodedEnd, decodeFailure));
        }
        return decodedEnd - firstRow;
    }

    /**
     * The first row in {@code [from, to)} whose fallible values fail to decode ({@link #decodeFailure} then tells
     * why), or {@code to}; {@code rowView}: a view over the batch's vectors, moved from row to row.
     */
    private int firstUndecodableRow(ColumnarRow rowView, int from, int to) {
        decodeFailure = null;
        if (fallibleFields.length == 0) {
            return to;
        }
        for (int row = from; row < to; row++) {
            try {
                rowView.setRowId(row);
                decodeFallibleFields(rowView);
            } catch (RuntimeException e) {
                decodeFailure = e;
                return row;
            }
        }
        return to;
    }

    /**
     * Hands the batch's records inside the position's range to the sink one by one, from {@code first}, the
     * batch's first record, on. Returns the records handed over.
     */
    private long handOverRecords(
            LogPosition position,
            LogRecordBatch batch,
            LogRecord first,
            CloseableIterator<LogRecord> records,
            LogRecordBatch.ReadContext readContext,
            RecordSink sink)
            throws Exception {
        // Any other row (a projection to the current schema) is not a view over the vectors.
        VectorSchemaRoot vectors =
                first.getRow() instanceof ColumnarRow ? readContext.getVectorSchemaRoot(batch.schemaId()) : null;
        long batchId = ArrowBatchRecord.nextBatchId();
        long written = 0;
        for (LogRecord record = first; record != null; record = next(records, position)) {
            long offset = record.logOffset();
            if (offset < position.fetchOffset()) {
                continue;
            }
            if (offset >= position.endOffset()) {
                position.advanceTo(position.endOffset());
                return written;
            }
            try {
                decodeFallibleFields(record.getRow());
            } catch (RuntimeException e) {
                position.handBack(undecodable(offset, e));
                return written;
            }
            if (vectors != null) {
                view.moveTo(vectors, batchId, record, (int) (offset - batch.baseLogOffset()));
                sink.write(position.bucket(), view);
            } else {
                sink.write(position.bucket(), record);
            }
            written++;
            position.advanceTo(offset + 1);
        }
        return written;
    }

    /** The batch's next record, or null at its end or when it cannot be decoded (the bucket is handed back). */
    private static @Nullable LogRecord next(CloseableIterator<LogRecord> records, LogPosition position) {
        try {
            return records.hasNext() ? records.next() : null;
        } catch (RuntimeException e) {
            position.handBack(undecodable(position.fetchOffset(), e));
            return null;
        }
    }

    private void decodeFallibleFields(InternalRow row) {
        for (InternalRow.FieldGetter field : fallibleFields) {
            field.getFieldOrNull(row);
        }
    }

    private static String undecodable(long offset, RuntimeException e) {
        return "a record at or after offset " + offset + " cannot be decoded (" + e + ")";
    }
}
