package io.lakesync.tiering.lake;

import java.util.List;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.record.LogRecord;
import org.apache.paimon.table.sink.CommitMessage;

/**
 * Writes the Fluss records of a group of buckets of one table into Paimon data files and hands them over as
 * commit messages. Closing a writer deletes the data files it wrote but did not hand over. Not thread-safe.
 */
public interface LakeWriter extends AutoCloseable {

    /** Writes one record of Fluss bucket {@code bucket}; the record is not kept after the call. */
    void write(TableBucket bucket, LogRecord record) throws Exception;

    /** Flushes everything written so far into data files and returns their commit messages. */
    List<CommitMessage> complete() throws Exception;

    /** Whether records go straight to the format's column writers (false: through Paimon's row writer). */
    boolean columnar();
}
