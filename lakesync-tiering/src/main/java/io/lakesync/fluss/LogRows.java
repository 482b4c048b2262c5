package io.lakesync.fluss;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.exception.FetchException;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataTypeRoot;

/**
 * The logs of some buckets of one table, read with one Fluss log scanner: subscribe each bucket at an offset, poll
 * the records of all of them, unsubscribe a bucket once read far enough.
 *
 * <p>Contains a Fluss 0.9.1 client bug: a record whose values the client cannot decode (for one, a TIMESTAMP before
 * 1970 with sub-millisecond digits) fails the whole poll with a {@link FetchException} that names the bucket only in
 * its message, and the scanner would fail every later poll at the same record. Here that failure becomes an
 * {@link UndecodableRecordException} naming the bucket, which is unsubscribed, so the other buckets read on.
 */
public final class LogRows implements AutoCloseable {

    /** How the Fluss 0.9.1 client reports a record it failed to decode ({@code CompletedFetch#fetchRecords}). */
    private static final String DECODE_FAILURE = "Received exception when fetching the next record from ";
    /** Fluss's Arrow column vectors (by class name) whose decoding fails on some values, and the type they read. */
    private static final Map<String, DataTypeRoot> ARROW_VECTORS = Map.of(
            "ArrowTimestampNtzColumnVector", DataTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE,
            "ArrowTimestampLtzColumnVector", DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
            "ArrowDecimalColumnVector", DataTypeRoot.DECIMAL);

    private final LogScanner scanner;
    private final TableInfo table;
    private final Set<TableBucket> subscribed = new HashSet<>();

    LogRows(LogScanner scanner, TableInfo table) {
        this.scanner = scanner;
        this.table = table;
    }

    /** Reads {@code bucket} from {@code offset} ({@link LogScanner#EARLIEST_OFFSET}: its first record). */
    public void subscribe(TableBucket bucket, long offset) {
        if (bucket.getPartitionId() == null) {
            scanner.subscribe(bucket.getBucket(), offset);
        } else {
            scanner.subscribe(bucket.getPartitionId(), bucket.getBucket(), offset);
        }
        subscribed.add(bucket);
    }

    public void unsubscribe(TableBucket bucket) {
        if (bucket.getPartitionId() == null) {
            scanner.unsubscribe(bucket.getBucket());
        } else {
            scanner.unsubscribe(bucket.getPartitionId(), bucket.getBucket());
        }
        subscribed.remove(bucket);
    }

    /**
     * The records that arrived within {@code timeout}, by bucket (empty when none did).
     *
     * @throws UndecodableRecordException when the client could not decode a record of a subscribed bucket, which is
     *     then unsubscribed
     */
    public Map<TableBucket, List<? extends LogRecord>> poll(Duration timeout) throws UndecodableRecordException {
        ScanRecords records;
        try {
            records = scanner.poll(timeout);
        } catch (FetchException e) {
            TableBucket failed = undecodableBucket(e);
            unsubscribe(failed);
            throw new UndecodableRecordException(failed, suspectColumns(e), e);
        }
        if (records.isEmpty()) {
            return Map.of();
        }
        Map<TableBucket, List<? extends LogRecord>> byBucket = new LinkedHashMap<>();
        for (TableBucket bucket : records.buckets()) {
            byBucket.put(bucket, records.records(bucket));
        }
        return byBucket;
    }

    /** The subscribed bucket whose record the client failed to decode; any other fetch failure is rethrown. */
    private TableBucket undecodableBucket(FetchException e) {
        String message = e.getMessage();
        if (message != null && message.startsWith(DECODE_FAILURE)) {
            for (TableBucket bucket : subscribed) {
                if (message.startsWith(DECODE_FAILURE + bucket + ".")) {
                    return bucket;
                }
            }
        }
        throw e;
    }

    /** The table's columns of the type whose Arrow decoding failed, as far as the stack trace tells. */
    private List<String> suspectColumns(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            for (StackTraceElement frame : cause.getStackTrace()) {
                String vector = frame.getClassName().substring(frame.getClassName().lastIndexOf('.') + 1);
                Optional<DataTypeRoot> type = Optional.ofNullable(ARROW_VECTORS.get(vector));
                if (type.isPresent()) {
                    return table.getRowType().getFields().stream()
                            .filter(f -> f.getType().getTypeRoot() == type.get())
                            .map(DataField::getName)
                            .toList();
                }
            }
        }
        return List.of();
    }

    @Override
    public void close() throws Exception {
        scanner.close();
    }
}
