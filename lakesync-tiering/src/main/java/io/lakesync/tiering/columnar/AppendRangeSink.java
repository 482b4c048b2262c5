package io.lakesync.tiering.columnar;

import org.apache.fluss.metadata.TableBucket;

/**
 * A {@link RecordSink} that also takes whole runs of appended rows of a batch ({@link ArrowAppendRange}), so that
 * a log table's batches reach the writer without a record object or a sink call per row. The columnar reader
 * hands a range when the table has no primary key (a log table holds appends only) and the batch was decoded in
 * the table's current schema; every other record still comes through {@link #write}. Rows of one bucket arrive
 * in offset order, ranges and single records alike.
 */
public interface AppendRangeSink extends RecordSink {

    /**
     * Writes every row of the range; an exception fails the read, as {@link #write} does (the reader's position
     * then stays before the range).
     */
    void writeAppends(TableBucket bucket, ArrowAppendRange range) throws Exception;
}
