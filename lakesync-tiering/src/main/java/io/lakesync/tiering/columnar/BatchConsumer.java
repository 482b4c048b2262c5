package io.lakesync.tiering.columnar;

import java.util.ArrayList;
import java.util.List;
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
 * <p>A record of a batch decoded in the table's current schema reaches the sink as an {@link ArrowBatchRecord},
 * which also shows the batch's vectors, so a writer can take the values from the Arrow buffers directly.
 *
 * <p>A record's values are decoded lazily, when the sink reads them; values whose decoding can fail (Fluss
 * 0.9.1 rejects some timestamps and decimals) are decoded here first, so such a record reaches the row path
 * instead of failing the lake writer half-way through a row.
 */
final class BatchConsumer {

    private final boolean checkCrcs;
    private final InternalRow.FieldGetter[] fallibleFields;
    private final ArrowBatchRecord view = new ArrowBatchRecord();

    /** {@code rowType}: the table's columns, whose fallible ones are decoded before the sink sees a record. */
    BatchConsumer(RowType rowType, boolean checkCrcs) {
        this.checkCrcs = checkCrcs;
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
            // Set on the batch's first record: the vectors, when the batch was decoded in the current schema.
            VectorSchemaRoot vectors = null;
            boolean firstRecord = true;
            long batchId = ArrowBatchRecord.nextBatchId();
            try (records) {
                while (true) {
                    LogRecord record;
                    try {
                        if (!records.hasNext()) {
                            break;
                        }
                        record = records.next();
                    } catch (RuntimeException e) {
                        position.handBack(undecodable(position.fetchOffset(), e));
                        return written;
                    }
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
                    if (firstRecord) {
                        firstRecord = false;
                        // Any other row (a projection to the current schema) is not a view over the vectors.
                        vectors = record.getRow() instanceof ColumnarRow
                                ? readContext.getVectorSchemaRoot(batch.schemaId())
                                : null;
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
            }
            position.advanceTo(Math.min(batch.nextLogOffset(), position.endOffset()));
        }
        return written;
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
