package io.lakesync.tiering.columnar;

import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.record.LogRecord;

/**
 * Takes the records the columnar reader hands out. The record and its row are views over the batch's Arrow
 * vectors, valid only during the call: a sink that keeps data copies it (Paimon's writers serialize or encode
 * a row before they return).
 */
@FunctionalInterface
public interface RecordSink {

    /** Writes one record; an exception fails the read (it is about the sink, not the log). */
    void write(TableBucket bucket, LogRecord record) throws Exception;
}
