package io.lakesync.tiering.round;

import io.lakesync.tiering.columnar.AppendRangeSink;
import io.lakesync.tiering.columnar.ArrowAppendRange;
import io.lakesync.tiering.columnar.ArrowLogReader;
import io.lakesync.tiering.columnar.LogPosition;
import io.lakesync.tiering.columnar.RecordSink;
import io.lakesync.tiering.lake.LakeWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.batch.BatchScanner;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.exception.FetchException;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataTypeRoot;
import org.apache.fluss.utils.CloseableIterator;
import org.apache.paimon.table.sink.CommitMessage;

/**
 * Reads a group of buckets of one table from Fluss and writes them into one {@link LakeWriter}: KV
 * snapshots first, then the log of every bucket. The log (a primary-key table's changelog too) goes through
 * the columnar reader ({@link ArrowLogReader}: Arrow batches, no row copied per record) when
 * {@code columnarConnection} is given;
 * what it hands back (remote segments, errors it does not cover), and every other log, goes through one log
 * scanner from where the columnar reader stopped. Both fetch ahead while records are written. Reading stops per bucket at its planned end offset; at the round's
 * deadline, or when no record has arrived for the idle timeout (Fluss 0.9.1 can leave a range that ends in
 * empty batches without a record to show the end), every bucket completes at the progress it reached.
 *
 * <p>A record the Fluss client cannot decode stops only its bucket, at the progress before it; the other
 * buckets read on, and the group reports the bucket as {@linkplain GroupResult#unreadable() unreadable}. A
 * record the lake writer cannot take fails the group at once (the writer's state after a half-written row is
 * not to be trusted).
 */
final class BucketGroupReader {

    private static final Duration POLL_TIMEOUT = Duration.ofMillis(200);
    /** How the Fluss 0.9.1 client reports a record it failed to decode (CompletedFetch#fetchRecords). */
    private static final String DECODE_FAILURE = "Received exception when fetching the next record from ";
    /** Fluss's Arrow column vectors (by name) whose decoding fails on some values, and the column type they read. */
    private static final Map<String, DataTypeRoot> ARROW_VECTORS = Map.of(
            "ArrowTimestampNtzColumnVector", DataTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE,
            "ArrowTimestampLtzColumnVector", DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
            "ArrowDecimalColumnVector", DataTypeRoot.DECIMAL);

    private final Table table;
    private final RowPathSchemaCheck rowPathCheck;
    private final @Nullable Connection columnarConnection;
    private final LakeWriter writer;
    private final RoundControl control;
    private final Map<TableBucket, Cursor> cursors = new LinkedHashMap<>();
    private boolean forceFinished;
    private @Nullable TableBucket lastColumnarBucket;
    private @Nullable Cursor lastColumnarCursor;

    /**
     * {@code table}: the table in the schema the round reads with; {@code rowPathCheck}: run before the row path
     * reads with it; {@code columnarConnection}: read the log columnar through it, or null for the row path only.
     */
    BucketGroupReader(
            Table table,
            RowPathSchemaCheck rowPathCheck,
            @Nullable Connection columnarConnection,
            LakeWriter writer,
            List<BucketRange> ranges,
            RoundControl control) {
        this.table = table;
        this.rowPathCheck = rowPathCheck;
        this.columnarConnection = columnarConnection;
        this.writer = writer;
        this.control = control;
        ranges.forEach(r -> cursors.put(r.bucket(), new Cursor(r)));
    }

    /** Reads and writes every bucket, then flushes the data files. */
    GroupResult read() throws Exception {
        for (Cursor cursor : cursors.values()) {
            if (cursor.range.kvSnapshotId() != null) {
                loadSnapshot(cursor);
            }
        }
        readLogs();
        List<CommitMessage> messages = writer.complete();
        List<BucketProgress> progress = new ArrayList<>();
        List<BadRecordException> unreadable = new ArrayList<>();
        for (Cursor cursor : cursors.values()) {
            progress.add(cursor.progress(writer.columnar()));
            if (cursor.unreadable != null) {
                unreadable.add(cursor.unreadable);
            }
        }
        return new GroupResult(progress, messages, forceFinished, unreadable);
    }

    private void loadSnapshot(Cursor cursor) throws Exception {
        rowPathCheck.check();
        TableBucket bucket = cursor.range.bucket();
        try (BatchScanner scanner = table.newScan().createBatchScanner(bucket, cursor.range.kvSnapshotId())) {
            CloseableIterator<InternalRow> batch;
            while ((batch = scanner.pollBatch(Duration.ofSeconds(1))) != null) {
                try (CloseableIterator<InternalRow> rows = batch) {
                    while (rows.hasNext()) {
                        writer.write(bucket, new ScanRecord(rows.next()));
                        cursor.records++;
                    }
                }
                control.throwIfCancelled();
            }
        }
        cursor.tieredEnd = cursor.range.logStartOffset();
    }

    private void readLogs() throws Exception {
        List<Cursor> open = new ArrayList<>();
        for (Cursor cursor : cursors.values()) {
            if (cursor.range.hasLog()) {
                open.add(cursor);
            }
        }
        if (!open.isEmpty() && columnarConnection != null) {
            open = readColumnar(open);
        }
        if (open.isEmpty()) {
            return;
        }
        rowPathCheck.check();
        try (LogScanner scanner = table.newScan().createLogScanner()) {
            for (Cursor cursor : open) {
                TableBucket bucket = cursor.range.bucket();
                if (bucket.getPartitionId() == null) {
                    scanner.subscribe(bucket.getBucket(), cursor.rowReadStart());
                } else {
                    scanner.subscribe(bucket.getPartitionId(), bucket.getBucket(), cursor.rowReadStart());
                }
            }
            int remaining = open.size();
            Instant lastRecordAt = control.clock().instant();
            while (remaining > 0) {
                control.throwIfCancelled();
                if (control.pastDeadline()) {
                    forceFinished = true;
                    return;
                }
                ScanRecords records;
                try {
                    records = scanner.poll(POLL_TIMEOUT);
                } catch (FetchException e) {
                    Cursor failed = decodeFailureOf(e, open);
                    failed.unreadable = unreadable(failed, e);
                    failed.done = true;
                    remaining--;
                    unsubscribe(scanner, failed.range.bucket());
                    continue;
                }
                if (records.isEmpty()) {
                    if (Duration.between(lastRecordAt, control.clock().instant()).compareTo(control.idleTimeout()) >= 0) {
                        return;
                    }
                    continue;
                }
                lastRecordAt = control.clock().instant();
                for (TableBucket bucket : records.buckets()) {
                    Cursor cursor = cursors.get(bucket);
                    if (cursor == null || cursor.done) {
                        continue;
                    }
                    if (consume(cursor, records.records(bucket))) {
                        remaining--;
                        unsubscribe(scanner, bucket);
                    }
                }
            }
        }
    }

    /**
     * Reads the cursors' logs with the columnar reader until each is done or handed back; returns the cursors
     * left to the row reader (none when the deadline or the idle timeout ended the read).
     */
    private List<Cursor> readColumnar(List<Cursor> open) throws Exception {
        try (ArrowLogReader reader = ArrowLogReader.open(columnarConnection, table.getTableInfo())) {
            for (Cursor cursor : open) {
                long start = cursor.range.logStartOffset() == BucketRange.EARLIEST ? 0 : cursor.range.logStartOffset();
                cursor.columnar = new LogPosition(cursor.range.bucket(), start, cursor.range.endOffset());
                reader.subscribe(cursor.columnar);
            }
            RecordSink sink = columnarSink();
            Instant lastProgressAt = control.clock().instant();
            long reading = open.size();
            while (reader.reading()) {
                control.throwIfCancelled();
                if (control.pastDeadline()) {
                    forceFinished = true;
                    break;
                }
                long written = reader.poll(POLL_TIMEOUT, sink);
                long stillReading = open.stream().filter(c -> c.columnar.reading()).count();
                if (written > 0 || stillReading < reading) {
                    lastProgressAt = control.clock().instant();
                    reading = stillReading;
                } else if (Duration.between(lastProgressAt, control.clock().instant())
                                .compareTo(control.idleTimeout()) >= 0) {
                    // The columnar reader advances even over empty batches, so no progress means the servers
                    // did not answer: commit what was read, and let the table go on at once rather than wait
                    // a freshness for the coordinator to offer it again.
                    forceFinished = true;
                    break;
                }
            }
        }
        List<Cursor> handedBack = new ArrayList<>();
        for (Cursor cursor : open) {
            switch (cursor.columnar.state()) {
                case DONE -> {
                    cursor.done = true;
                    cursor.tieredEnd = cursor.range.endOffset();
                }
                case HANDED_BACK -> handedBack.add(cursor);
                case READING -> { }
            }
        }
        boolean stopped = open.stream().anyMatch(c -> c.columnar.reading());
        return stopped ? List.of() : handedBack;
    }

    /** Where the columnar reader's records go: the writer, which takes a log batch's rows as one range if it can. */
    private RecordSink columnarSink() {
        if (!(writer instanceof AppendRangeSink ranges)) {
            return this::writeColumnar;
        }
        return new AppendRangeSink() {
            @Override
            public void write(TableBucket bucket, LogRecord record) throws Exception {
                writeColumnar(bucket, record);
            }

            @Override
            public void writeAppends(TableBucket bucket, ArrowAppendRange range) throws Exception {
                writeColumnar(ranges, bucket, range);
            }
        };
    }

    private void writeColumnar(TableBucket bucket, LogRecord record) throws Exception {
        write(columnarCursor(bucket), record);
    }

    private void writeColumnar(AppendRangeSink ranges, TableBucket bucket, ArrowAppendRange range) throws Exception {
        Cursor cursor = columnarCursor(bucket);
        long lastOffset = range.offsetOf(range.endRow() - 1);
        try {
            ranges.writeAppends(cursor.range.bucket(), range);
        } catch (RuntimeException e) {
            throw lakeRejects(cursor, "offsets " + range.offsetOf(range.firstRow()) + " to " + lastOffset, e);
        }
        cursor.records += range.rowCount();
        cursor.tieredEnd = lastOffset + 1;
        cursor.maxTimestamp = Math.max(cursor.maxTimestamp, range.timestamp());
    }

    private Cursor columnarCursor(TableBucket bucket) {
        // The reader hands out batch by batch: keep the last bucket's cursor (TableBucket hashes by boxing).
        if (bucket != lastColumnarBucket) {
            lastColumnarCursor = cursors.get(bucket);
            lastColumnarBucket = bucket;
        }
        return lastColumnarCursor;
    }

    /** Writes the records below the cursor's end offset; returns true once the end offset is reached. */
    private boolean consume(Cursor cursor, List<ScanRecord> batch) throws Exception {
        for (ScanRecord record : batch) {
            if (record.logOffset() >= cursor.range.endOffset()) {
                cursor.done = true;
                break;
            }
            write(cursor, record);
        }
        cursor.done |= cursor.tieredEnd != Cursor.NONE && cursor.tieredEnd >= cursor.range.endOffset();
        if (cursor.done) {
            cursor.tieredEnd = cursor.range.endOffset();
        }
        return cursor.done;
    }

    private void write(Cursor cursor, LogRecord record) throws Exception {
        long offset = record.logOffset();
        try {
            writer.write(cursor.range.bucket(), record);
        } catch (RuntimeException e) {
            throw lakeRejects(cursor, "offset " + offset, e);
        }
        cursor.records++;
        cursor.tieredEnd = offset + 1;
        cursor.maxTimestamp = Math.max(cursor.maxTimestamp, record.timestamp());
    }

    /** The failure to throw for a write of the records at {@code offsets} that the lake writer failed. */
    private Exception lakeRejects(Cursor cursor, String offsets, RuntimeException e) {
        if (causedByIo(e)) {
            return e;
        }
        return BadRecordException.of(
                table.getTableInfo().getTablePath(),
                bucketName(cursor.range) + " at " + offsets,
                List.of(),
                e,
                "The lake table cannot hold this record, so the round cannot commit. Check that the Paimon "
                        + "table's column types still match the Fluss table.");
    }

    /** Whether a write failed on storage (spilling, a data file) rather than on the record's values. */
    private static boolean causedByIo(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof java.io.IOException || cause instanceof java.io.UncheckedIOException) {
                return true;
            }
        }
        return false;
    }

    /** The bucket whose record the client failed to decode; any other fetch failure is rethrown. */
    private static Cursor decodeFailureOf(FetchException e, List<Cursor> open) {
        String message = e.getMessage();
        if (message != null && message.startsWith(DECODE_FAILURE)) {
            for (Cursor cursor : open) {
                if (!cursor.done && message.startsWith(DECODE_FAILURE + cursor.range.bucket() + ".")) {
                    return cursor;
                }
            }
        }
        throw e;
    }

    private BadRecordException unreadable(Cursor cursor, FetchException e) {
        long next = cursor.tieredEnd != Cursor.NONE ? cursor.tieredEnd : cursor.range.logStartOffset();
        String offset = next == BucketRange.EARLIEST ? "from the start of its log" : "at or after offset " + next;
        return BadRecordException.of(
                table.getTableInfo().getTablePath(),
                bucketName(cursor.range) + " " + offset,
                suspectColumns(e),
                e,
                "The Fluss client cannot decode this record (Fluss 0.9.1 fails, for one, on TIMESTAMP values before "
                        + "1970 with sub-millisecond digits). The bucket's sync stays before it while the table's "
                        + "other buckets keep syncing; a Fluss client that reads the value is needed to tier it.");
    }

    /** The table's columns of the type whose Arrow decoding failed, as far as the stack trace tells. */
    private List<String> suspectColumns(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            for (StackTraceElement frame : cause.getStackTrace()) {
                String vector = frame.getClassName().substring(frame.getClassName().lastIndexOf('.') + 1);
                Optional<DataTypeRoot> type = Optional.ofNullable(ARROW_VECTORS.get(vector));
                if (type.isPresent()) {
                    return table.getTableInfo().getRowType().getFields().stream()
                            .filter(f -> f.getType().getTypeRoot() == type.get())
                            .map(DataField::getName)
                            .toList();
                }
            }
        }
        return List.of();
    }

    private static String bucketName(BucketRange range) {
        return (range.partitionName() == null ? "" : "partition '" + range.partitionName() + "', ")
                + "bucket " + range.bucket().getBucket();
    }

    private static void unsubscribe(LogScanner scanner, TableBucket bucket) {
        if (bucket.getPartitionId() == null) {
            scanner.unsubscribe(bucket.getBucket());
        } else {
            scanner.unsubscribe(bucket.getPartitionId(), bucket.getBucket());
        }
    }

    /**
     * The outcome of one group: per-bucket progress, the data files written, whether time ran out, and the
     * buckets that stopped before a record the client could not decode.
     */
    record GroupResult(
            List<BucketProgress> buckets,
            List<CommitMessage> messages,
            boolean forceFinished,
            List<BadRecordException> unreadable) {}

    private static final class Cursor {
        /** {@link #tieredEnd} before any progress; a primitive, as it is set for every record. */
        static final long NONE = Long.MIN_VALUE;

        final BucketRange range;
        long tieredEnd = NONE;
        long maxTimestamp = -1;
        long records;
        boolean done;
        BadRecordException unreadable;
        /** The columnar reader's progress in this bucket, or null when it did not read it. */
        @Nullable LogPosition columnar;

        Cursor(BucketRange range) {
            this.range = range;
        }

        /** Where the row reader starts: where the columnar reader handed the bucket back, if it read some. */
        long rowReadStart() {
            boolean advanced = columnar != null && columnar.fetchOffset() > Math.max(0, range.logStartOffset());
            return advanced ? columnar.fetchOffset() : range.logStartOffset();
        }

        BucketProgress progress(boolean writtenColumnar) {
            boolean readColumnar = columnar != null && columnar.state() != LogPosition.State.HANDED_BACK;
            return new BucketProgress(
                    range, tieredEnd == NONE ? null : tieredEnd, maxTimestamp, records, readColumnar, writtenColumnar);
        }
    }
}
