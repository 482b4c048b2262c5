package io.lakesync.tiering.columnar;

import org.apache.fluss.record.LogRecord;
import org.apache.fluss.record.LogRecordBatch;
import org.apache.fluss.utils.CloseableIterator;

/**
 * Hands the records of fetched batches to a sink, within one bucket's range: records below the position's
 * fetch offset (a batch fetched from its start when the range starts inside it) are skipped, the position
 * stops at its end offset, and a batch read to its end moves the position to the batch's next offset even
 * when its last offsets hold no record. A batch that fails its checksum or cannot be decoded hands the bucket
 * back to the row path at the offset it reached, which then reports the record as the row path always has.
 */
final class BatchConsumer {

    private BatchConsumer() {}

    /** Returns the number of records handed to the sink. */
    static long consume(
            LogPosition position,
            Iterable<LogRecordBatch> batches,
            LogRecordBatch.ReadContext readContext,
            boolean checkCrcs,
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
                    sink.write(position.bucket(), record);
                    written++;
                    position.advanceTo(offset + 1);
                }
            }
            position.advanceTo(Math.min(batch.nextLogOffset(), position.endOffset()));
        }
        return written;
    }

    private static String undecodable(long offset, RuntimeException e) {
        return "a record at or after offset " + offset + " cannot be decoded (" + e + ")";
    }
}
