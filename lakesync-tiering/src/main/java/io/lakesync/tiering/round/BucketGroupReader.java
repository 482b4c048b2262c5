package io.lakesync.tiering.round;

import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.LogRows;
import io.lakesync.fluss.TableReads;
import io.lakesync.fluss.UndecodableRecordException;
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
import javax.annotation.Nullable;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.record.LogRecord;
import org.apache.paimon.table.sink.CommitMessage;

/**
 * Reads a group of buckets of one table from Fluss and writes them into one {@link LakeWriter}: KV
 * snapshots first, then the log of every bucket. The log (a primary-key table's changelog too) goes through
 * the columnar reader ({@link ArrowLogReader}: Arrow batches, no row copied per record) when
 * {@code columnarClient} is given;
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

    private final TableReads table;
    private final RowPathSchemaCheck rowPathCheck;
    private final @Nullable FlussClient columnarClient;
    private final LakeWriter writer;
    private final RoundControl control;
    private final Map<TableBucket, Cursor> cursors = new LinkedHashMap<>();
    private boolean forceFinished;
    private @Nullable TableBucket lastColumnarBucket;
    private @Nullable Cursor lastColumnarCursor;

    /**
     * {@code table}: the table in the schema the round reads with; {@code rowPathCheck}: run before the row path
     * reads with it; {@code columnarClient}: read the log columnar through it, or null for the row path only.
     */
    BucketGroupReader(
            TableReads table,
            RowPathSchemaCheck rowPathCheck,
            @Nullable FlussClient columnarClient,
            LakeWriter writer,
            List<BucketRange> ranges,
            RoundControl control) {
        this.table = table;
        this.rowPathCheck = rowPathCheck;
        this.columnarClient = columnarClient;
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
        table.readKvSnapshot(bucket, cursor.range.kvSnapshotId(), record -> {
            writer.write(bucket, record);
            cursor.records++;
        }, control::throwIfCancelled);
        cursor.tieredEnd = cursor.range.logStartOffset();
    }

    private void readLogs() throws Exception {
        List<Cursor> open = new ArrayList<>();
        for (Cursor cursor : cursors.values()) {
            if (cursor.range.hasLog()) {
                open.add(cursor);
            }
        }
        if (!open.isEmpty() && columnarClient != null) {
            open = readColumnar(open);
        }
        if (open.isEmpty()) {
            return;
        }
        rowPathCheck.check();
        try (LogRows log = table.openLog()) {
            for (Cursor cursor : open) {
                log.subscribe(cursor.range.bucket(), cursor.rowReadStart());
            }
            int remaining = open.size();
            Instant lastRecordAt = control.clock().instant();
            while (remaining > 0) {
                control.throwIfCancelled();
                if (control.pastDeadline()) {
                    forceFinished = true;
                    return;
                }
                Map<TableBucket, List<? extends LogRecord>> records;
                try {
                    records = log.poll(POLL_TIMEOUT);
                } catch (UndecodableRecordException e) {
                    Cursor failed = cursors.get(e.bucket());
                    failed.unreadable = unreadable(failed, e);
                    failed.done = true;
                    remaining--;
                    continue;
                }
                if (records.isEmpty()) {
                    if (Duration.between(lastRecordAt, control.clock().instant()).compareTo(control.idleTimeout()) >= 0) {
                        return;
                    }
                    continue;
                }
                lastRecordAt = control.clock().instant();
                for (Map.Entry<TableBucket, List<? extends LogRecord>> bucket : records.entrySet()) {
                    Cursor cursor = cursors.get(bucket.getKey());
                    if (cursor == null || cursor.done) {
                        continue;
                    }
                    if (consume(cursor, bucket.getValue())) {
                        remaining--;
                        log.unsubscribe(bucket.getKey());
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
        try (ArrowLogReader reader = ArrowLogReader.open(columnarClient, table.info())) {
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
    private boolean consume(Cursor cursor, List<? extends LogRecord> batch) throws Exception {
        for (LogRecord record : batch) {
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
                table.info().getTablePath(),
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

    private BadRecordException unreadable(Cursor cursor, UndecodableRecordException e) {
        long next = cursor.tieredEnd != Cursor.NONE ? cursor.tieredEnd : cursor.range.logStartOffset();
        String offset = next == BucketRange.EARLIEST ? "from the start of its log" : "at or after offset " + next;
        return BadRecordException.of(
                table.info().getTablePath(),
                bucketName(cursor.range) + " " + offset,
                e.suspectColumns(),
                e.getCause(),
                "The Fluss client cannot decode this record (Fluss 0.9.1 fails, for one, on TIMESTAMP values before "
                        + "1970 with sub-millisecond digits). The bucket's sync stays before it while the table's "
                        + "other buckets keep syncing; a Fluss client that reads the value is needed to tier it.");
    }

    private static String bucketName(BucketRange range) {
        return (range.partitionName() == null ? "" : "partition '" + range.partitionName() + "', ")
                + "bucket " + range.bucket().getBucket();
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
