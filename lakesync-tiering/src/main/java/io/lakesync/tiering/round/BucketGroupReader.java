package io.lakesync.tiering.round;

import io.lakesync.tiering.lake.LakeTableWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.batch.BatchScanner;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.utils.CloseableIterator;
import org.apache.paimon.table.sink.CommitMessage;

/**
 * Reads a group of buckets of one table from Fluss and writes them into one {@link LakeTableWriter}: KV
 * snapshots first, then the log of every bucket through one log scanner, whose fetches run ahead in the
 * background while records are written. Reading stops per bucket at its planned end offset; at the round's
 * deadline, or when no record has arrived for the idle timeout (Fluss 0.9.1 can leave a range that ends in
 * empty batches without a record to show the end), every bucket completes at the progress it reached.
 */
final class BucketGroupReader {

    private static final Duration POLL_TIMEOUT = Duration.ofMillis(200);

    private final Table table;
    private final LakeTableWriter writer;
    private final RoundControl control;
    private final Map<TableBucket, Cursor> cursors = new LinkedHashMap<>();
    private boolean forceFinished;

    BucketGroupReader(Table table, LakeTableWriter writer, List<BucketRange> ranges, RoundControl control) {
        this.table = table;
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
        cursors.values().forEach(c -> progress.add(c.progress()));
        return new GroupResult(progress, messages, forceFinished);
    }

    private void loadSnapshot(Cursor cursor) throws Exception {
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
        if (open.isEmpty()) {
            return;
        }
        try (LogScanner scanner = table.newScan().createLogScanner()) {
            for (Cursor cursor : open) {
                TableBucket bucket = cursor.range.bucket();
                if (bucket.getPartitionId() == null) {
                    scanner.subscribe(bucket.getBucket(), cursor.range.logStartOffset());
                } else {
                    scanner.subscribe(bucket.getPartitionId(), bucket.getBucket(), cursor.range.logStartOffset());
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
                ScanRecords records = scanner.poll(POLL_TIMEOUT);
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
                    if (cursor.consume(records.records(bucket), writer)) {
                        remaining--;
                        if (bucket.getPartitionId() == null) {
                            scanner.unsubscribe(bucket.getBucket());
                        } else {
                            scanner.unsubscribe(bucket.getPartitionId(), bucket.getBucket());
                        }
                    }
                }
            }
        }
    }

    /** The outcome of one group: per-bucket progress, the data files written, and whether time ran out. */
    record GroupResult(List<BucketProgress> buckets, List<CommitMessage> messages, boolean forceFinished) {}

    private static final class Cursor {
        /** {@link #tieredEnd} before any progress; a primitive, as it is set for every record. */
        static final long NONE = Long.MIN_VALUE;

        final BucketRange range;
        long tieredEnd = NONE;
        long maxTimestamp = -1;
        long records;
        boolean done;

        Cursor(BucketRange range) {
            this.range = range;
        }

        /** Writes the records below the end offset; returns true once the end offset is reached. */
        boolean consume(List<ScanRecord> batch, LakeTableWriter writer) throws Exception {
            TableBucket bucket = range.bucket();
            boolean passedEnd = false;
            for (ScanRecord record : batch) {
                long offset = record.logOffset();
                if (offset >= range.endOffset()) {
                    passedEnd = true;
                    break;
                }
                writer.write(bucket, record);
                records++;
                tieredEnd = offset + 1;
                maxTimestamp = Math.max(maxTimestamp, record.timestamp());
            }
            done = passedEnd || (tieredEnd != NONE && tieredEnd >= range.endOffset());
            if (done) {
                tieredEnd = range.endOffset();
            }
            return done;
        }

        BucketProgress progress() {
            return new BucketProgress(range, tieredEnd == NONE ? null : tieredEnd, maxTimestamp, records);
        }
    }
}
