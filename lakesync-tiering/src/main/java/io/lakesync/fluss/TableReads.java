package io.lakesync.fluss;

import java.time.Duration;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.batch.BatchScanner;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.utils.CloseableIterator;

/**
 * One Fluss table opened for reading through the client's scanners, in the schema of the table info it was opened
 * with: a bucket's KV snapshot, and the logs of its buckets ({@link LogRows}). Opened by {@link FlussClient}.
 */
public final class TableReads implements AutoCloseable {

    /** Takes one record; may fail the read. */
    @FunctionalInterface
    public interface RecordHandler {
        void accept(LogRecord record) throws Exception;
    }

    /** Runs after each batch of records; may stop the read by throwing. */
    @FunctionalInterface
    public interface BatchEnd {
        void ended() throws Exception;
    }

    private static final Duration SNAPSHOT_POLL = Duration.ofSeconds(1);

    private final Table table;

    TableReads(Table table) {
        this.table = table;
    }

    /** The table's info, in the schema the reads decode with. */
    public TableInfo info() {
        return table.getTableInfo();
    }

    /**
     * Reads every row of KV snapshot {@code snapshotId} of {@code bucket}, each as an insert record without an
     * offset, calling {@code batchEnd} after each batch.
     */
    public void readKvSnapshot(TableBucket bucket, long snapshotId, RecordHandler each, BatchEnd batchEnd)
            throws Exception {
        try (BatchScanner scanner = table.newScan().createBatchScanner(bucket, snapshotId)) {
            CloseableIterator<InternalRow> batch;
            while ((batch = scanner.pollBatch(SNAPSHOT_POLL)) != null) {
                try (CloseableIterator<InternalRow> rows = batch) {
                    while (rows.hasNext()) {
                        each.accept(new ScanRecord(rows.next()));
                    }
                }
                batchEnd.ended();
            }
        }
    }

    /** A log reader over some of the table's buckets; the caller closes it. */
    public LogRows openLog() {
        return new LogRows(table.newScan().createLogScanner(), table.getTableInfo());
    }

    @Override
    public void close() throws Exception {
        table.close();
    }
}
