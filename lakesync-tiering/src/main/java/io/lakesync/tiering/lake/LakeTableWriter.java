package io.lakesync.tiering.lake;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.fluss.lake.paimon.tiering.FlussRecordAsPaimonRow;
import org.apache.fluss.lake.paimon.utils.PaimonConversions;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.record.LogRecord;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.KeyValue;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.operation.FileStoreWrite;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.TableWriteImpl;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.ProjectedRow;

/**
 * Writes Fluss records of any number of buckets of one table into Paimon data files, in the layout Fluss's
 * own tiering writes: the Fluss columns, then {@code __bucket}, {@code __offset} and {@code __timestamp};
 * Fluss bucket = Paimon bucket; change types as row kinds (+I, -U, +U, -D) so the primary-key merge applies
 * updates and deletes and {@code changelog-producer=input} keeps them.
 *
 * <p>One writer serves all buckets a reader thread owns, so they share one write buffer (spilled to disk
 * under {@code ioTmpDir} when full) instead of one buffer per bucket. Rows go straight to Paimon's file store
 * writer with the partition worked out once per bucket, not per row. A primary-key table's records reach the
 * write buffer without copies: the value is a {@link RecordRowView}, the key a projection of it (the buffer
 * serializes both at once); its unique columns are written without Parquet dictionary
 * ({@link UniqueColumnEncoding}). Not thread-safe.
 */
public final class LakeTableWriter implements LakeWriter {

    private final TableWriteImpl<?> tableWrite;
    private final IOManager ioManager;
    private final RowType rowType;
    private final boolean bucketUnaware;
    /** Positions of the primary key without partition columns (Paimon's key), or null for a log table. */
    private final int[] keyFields;
    private final KeyValue keyValue = new KeyValue();
    private final Map<TableBucket, Target> targets = new HashMap<>();
    private long recordsWritten;

    public LakeTableWriter(FileStoreTable table, boolean autoCompaction, Path ioTmpDir) {
        Map<String, String> writeOptions = new HashMap<>(UniqueColumnEncoding.writeOptions(table));
        writeOptions.put(CoreOptions.WRITE_ONLY.key(), Boolean.toString(!autoCompaction));
        FileStoreTable writeTable = table.copy(writeOptions);
        this.ioManager = IOManager.create(ioTmpDir.toString());
        this.tableWrite =
                (TableWriteImpl<?>)
                        writeTable.newWrite(LakeSnapshotCommitter.COMMIT_USER).withIOManager(ioManager);
        this.rowType = writeTable.rowType();
        this.bucketUnaware = writeTable.bucketMode() == BucketMode.BUCKET_UNAWARE;
        this.keyFields = writeTable.primaryKeys().isEmpty()
                ? null
                : writeTable.schema().trimmedPrimaryKeys().stream().mapToInt(rowType::getFieldIndex).toArray();
    }

    @Override
    @SuppressWarnings("unchecked")
    public void write(TableBucket bucket, LogRecord record) throws Exception {
        Target target = targets.get(bucket);
        if (target == null) {
            target = keyFields == null
                    ? new Target(new FlussRecordAsPaimonRow(bucket.getBucket(), rowType), null)
                    : new Target(new RecordRowView(bucket.getBucket(), rowType), ProjectedRow.from(keyFields));
            target.row.setFlussRecord(record);
            // Copied: the extractor reuses its partition row. One Fluss bucket lies in one partition.
            target.partition = tableWrite.getPartition(target.row).copy();
            targets.put(bucket, target);
        }
        FlussRecordAsPaimonRow row = target.row;
        row.setFlussRecord(record);
        // A log table without bucket key is bucket-unaware in Paimon; __bucket still holds the Fluss bucket.
        int paimonBucket = bucketUnaware ? 0 : bucket.getBucket();
        if (target.key == null) {
            ((FileStoreWrite<InternalRow>) tableWrite.getWrite()).write(target.partition, paimonBucket, row);
        } else {
            keyValue.replace(
                    target.key.replaceRow(row),
                    KeyValue.UNKNOWN_SEQUENCE,
                    PaimonConversions.toRowKind(record.getChangeType()),
                    row);
            ((FileStoreWrite<KeyValue>) tableWrite.getWrite()).write(target.partition, paimonBucket, keyValue);
        }
        recordsWritten++;
    }

    public long recordsWritten() {
        return recordsWritten;
    }

    @Override
    public List<CommitMessage> complete() throws Exception {
        return tableWrite.prepareCommit();
    }

    @Override
    public boolean columnar() {
        return false;
    }

    @Override
    public void close() throws Exception {
        try {
            tableWrite.close();
        } finally {
            ioManager.close();
        }
    }

    /** Where one Fluss bucket's rows go: its reusable row and key views and its Paimon partition. */
    private static final class Target {
        final FlussRecordAsPaimonRow row;
        final ProjectedRow key;
        BinaryRow partition;

        Target(FlussRecordAsPaimonRow row, ProjectedRow key) {
            this.row = row;
            this.key = key;
        }
    }
}
