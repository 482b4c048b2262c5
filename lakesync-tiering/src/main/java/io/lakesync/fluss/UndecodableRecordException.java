package io.lakesync.fluss;

import java.util.List;
import org.apache.fluss.metadata.TableBucket;

/** The Fluss client could not decode a record of {@link #bucket()}; see {@link LogRows}. */
public final class UndecodableRecordException extends Exception {

    private final TableBucket bucket;
    private final List<String> suspectColumns;

    UndecodableRecordException(TableBucket bucket, List<String> suspectColumns, Throwable cause) {
        super(cause.getMessage(), cause);
        this.bucket = bucket;
        this.suspectColumns = suspectColumns;
    }

    public TableBucket bucket() {
        return bucket;
    }

    /** The table's columns of the type whose decoding failed; empty when the failure does not tell. */
    public List<String> suspectColumns() {
        return suspectColumns;
    }
}
