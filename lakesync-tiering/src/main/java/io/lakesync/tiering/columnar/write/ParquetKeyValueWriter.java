package io.lakesync.tiering.columnar.write;

import io.lakesync.tiering.lake.LakeWriter;
import io.lakesync.tiering.lake.UniqueColumnEncoding;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.fluss.lake.paimon.utils.PaimonConversions;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.record.LogRecord;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.KeyValue;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.format.parquet.ParquetSchemaConverter;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.shade.org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.paimon.shade.org.apache.parquet.hadoop.CodecFactory;
import org.apache.paimon.shade.org.apache.parquet.schema.MessageType;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.PrimaryKeyTableUtils;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeChecks;
import org.apache.paimon.types.RowType;

/**
 * The columnar write for Paimon primary-key tables stored as Parquet: instead of Paimon's merge-tree writer
 * (rows serialised into a sort buffer, sorted, read back, merged and encoded row by row twice), each record's
 * values are copied into per-bucket column buffers ({@link ChangelogBuffer}) as they arrive; at the round's end,
 * or when the buffered records pass {@code write-buffer-size}, a bucket's buffer is sorted by key once and
 * encoded straight into Parquet column writers as the two level-0 files Paimon's writer flushes: the
 * {@code changelog-producer=input} changelog file (every record, in key order) and the data file (per key the
 * record with the highest sequence number: merge engine {@code deduplicate}; deletes stay, as in level 0).
 *
 * <p>Both files have Paimon's key-value layout ({@code _KEY_<key>...}, {@code _SEQUENCE_NUMBER},
 * {@code _VALUE_KIND}, the table's columns) and the metadata Paimon's key-value file writer gives them
 * ({@link KeyValueFile}); sequence numbers are assigned as Paimon's merge-tree writer assigns them: one per
 * record in arrival order, after the bucket's newest file's. The files are committed through the same commit
 * messages as the row writer's. Closing the writer deletes every file it has not handed over.
 *
 * <p>Which tables it serves: {@link #unsupportedReason}; any other table keeps Paimon's row writer.
 */
public final class ParquetKeyValueWriter implements LakeWriter {

    /** Records between checks of the buffered bytes. */
    private static final int MEMORY_CHECK_RECORDS = 1024;

    private final FileStoreTable table;
    private final String tableName;
    private final MessageType valueSchema;
    private final ValueEncoder[] encoders;
    private final RowType businessType;
    private final boolean timestampMicros;
    private final int[] keyColumns;
    private final KeyValueFile.Layout layout;
    private final ParquetSettings settings;
    /** The settings with the dictionary off for these business columns as well, per set chosen so far. */
    private final Map<Set<String>, ParquetSettings> plainSettings = new HashMap<>();
    private final List<String> businessColumns;
    private final boolean changelog;
    private final long writeBufferSize;
    private final CodecFactory codecs;
    private final BucketTargets<BucketWriter> buckets;
    private int recordsSinceMemoryCheck;

    /** Call only when {@link #unsupportedReason} is null for the table. */
    public ParquetKeyValueWriter(FileStoreTable table) {
        String unsupported = unsupportedReason(table);
        if (unsupported != null) {
            throw new IllegalArgumentException(unsupported);
        }
        this.table = table;
        this.tableName = table.name();
        RowType valueType = table.rowType();
        this.valueSchema = ParquetSchemas.of(valueType);
        this.encoders = ParquetAppendWriter.encoders(valueType, valueSchema);
        this.businessType = new RowType(valueType.getFields().subList(0, encoders.length));
        this.timestampMicros = DataTypeChecks.getPrecision(valueType.getTypeAt(valueType.getFieldCount() - 1)) > 3;
        RowType keyType = keyType(table);
        this.keyColumns = new int[keyType.getFieldCount()];
        List<String> keys = table.schema().trimmedPrimaryKeys();
        for (int i = 0; i < keyColumns.length; i++) {
            keyColumns[i] = valueType.getFieldIndex(keys.get(i));
        }
        CoreOptions options = table.coreOptions();
        RowType fileType = KeyValue.schema(keyType, valueType);
        MessageType fileSchema = ParquetSchemas.of(fileType);
        ParquetSettings tableSettings =
                ParquetSettings.of(options).withoutDictionary(UniqueColumnEncoding.columns(table));
        // A run writes its data and its changelog file at once: page buffers for both, reused page to page.
        this.settings = tableSettings.withAllocator(new PageBufferPool(
                4L * fileSchema.getColumns().size() * tableSettings.properties().getPageSizeThreshold()));
        this.codecs = new PageCodecFactory(settings.hadoopConf(), settings.properties().getPageSizeThreshold());
        BytesInputCompressor compressor = codecs.getCompressor(settings.codec());
        this.layout = new KeyValueFile.Layout(table, keyType, fileType, fileSchema, keyColumns, compressor);
        this.businessColumns = valueType.getFieldNames().subList(0, encoders.length);
        this.changelog = options.changelogProducer() == CoreOptions.ChangelogProducer.INPUT;
        this.writeBufferSize = options.writeBufferSize();
        this.buckets = new BucketTargets<>(table, BucketWriter::new);
    }

    /** Why the table's data files cannot be written by this writer, or null when they can. */
    public static @Nullable String unsupportedReason(FileStoreTable table) {
        CoreOptions options = table.coreOptions();
        if (table.primaryKeys().isEmpty()) {
            return "a log table";
        }
        if (!"parquet".equals(options.fileFormatString())) {
            return "file format '" + options.fileFormatString() + "' (only parquet is written columnar)";
        }
        if (options.mergeEngine() != CoreOptions.MergeEngine.DEDUPLICATE
                || options.ignoreDelete()
                || options.ignoreUpdateBefore()
                || !options.sequenceField().isEmpty()
                || options.rowkindField().isPresent()) {
            return "merge engine '" + options.mergeEngine() + "' with its options (only deduplicate without "
                    + "sequence.field, rowkind.field, ignore-delete or ignore-update-before is merged columnar)";
        }
        if (options.changelogProducer() != CoreOptions.ChangelogProducer.NONE
                && options.changelogProducer() != CoreOptions.ChangelogProducer.INPUT) {
            return "changelog-producer '" + options.changelogProducer() + "'";
        }
        if (options.deletionVectorsEnabled() || options.rowTrackingEnabled() || options.dataEvolutionEnabled()
                || options.dataFileThinMode()) {
            return "deletion vectors, row tracking, data evolution or data-file.thin-mode are enabled";
        }
        if (options.bucket() <= 0) {
            return "dynamic or postponed bucket mode (bucket = " + options.bucket() + ")";
        }
        for (String key : List.of("file.format.per.level", "file.compression.per.level", "metadata.stats-mode.per.level",
                "changelog-file.format", "changelog-file.compression", "changelog-file.stats-mode")) {
            if (table.options().containsKey(key)) {
                return "table option '" + key + "' (not reproduced by the columnar write)";
            }
        }
        String option = ParquetSettings.unsupportedOption(options.toMap());
        if (option != null) {
            return option + " (not reproduced by the columnar write)";
        }
        RowType rowType = table.rowType();
        if (!ParquetAppendWriter.systemColumnsCovered(rowType)
                || ParquetAppendWriter.encoders(rowType, ParquetSchemas.of(rowType))
                        == null) {
            return "a column type the columnar write does not cover (nested, or timestamp precision above 6)";
        }
        for (DataField key : keyType(table).getFields()) {
            if (!sortable(key.type())) {
                return "primary-key column '" + key.name() + "' of type " + key.type()
                        + " (only integers, dates, times, strings, booleans, decimals up to precision 18 and "
                        + "timestamps up to precision 6 are sorted columnar)";
            }
        }
        return null;
    }

    /** Whether the buffered physical values of a key column of this type sort as Paimon's key comparator does. */
    private static boolean sortable(DataType type) {
        return switch (type.getTypeRoot()) {
            case BOOLEAN, TINYINT, SMALLINT, INTEGER, DATE, TIME_WITHOUT_TIME_ZONE, BIGINT, CHAR, VARCHAR -> true;
            case DECIMAL -> ParquetSchemaConverter.is64BitDecimal(DataTypeChecks.getPrecision(type))
                    || ParquetSchemaConverter.is32BitDecimal(DataTypeChecks.getPrecision(type));
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> DataTypeChecks.getPrecision(type) <= 6;
            default -> false;
        };
    }

    /** Paimon's key: the primary key without partition columns, its columns named {@code _KEY_<name>}. */
    private static RowType keyType(FileStoreTable table) {
        return new RowType(PrimaryKeyTableUtils.PrimaryKeyFieldsExtractor.EXTRACTOR.keyFields(table.schema()));
    }

    @Override
    public void write(TableBucket bucket, LogRecord record) throws Exception {
        buckets.of(bucket, record).buffer.append(
                record, PaimonConversions.toRowKind(record.getChangeType()), bucket.getBucket(), tableName);
        if (++recordsSinceMemoryCheck >= MEMORY_CHECK_RECORDS) {
            recordsSinceMemoryCheck = 0;
            flushLargestIfFull();
        }
    }

    /**
     * When the buffered records of all buckets pass {@code write-buffer-size}, flushes the largest bucket as a
     * sorted run, as Paimon's writer does when its buffer is full and may not spill.
     */
    private void flushLargestIfFull() throws IOException {
        long total = 0;
        BucketWriter largest = null;
        long largestMemory = -1;
        for (BucketWriter writer : buckets.all()) {
            long memory = writer.buffer.memory();
            total += memory;
            if (memory > largestMemory && writer.buffer.rows() > 0) {
                largest = writer;
                largestMemory = memory;
            }
        }
        if (total > writeBufferSize && largest != null) {
            largest.flush();
        }
    }

    @Override
    public List<CommitMessage> complete() throws Exception {
        List<CommitMessage> messages = new ArrayList<>();
        for (BucketWriter writer : buckets.all()) {
            writer.flush();
        }
        for (BucketWriter writer : buckets.all()) {
            if (!writer.dataFiles.isEmpty() || !writer.changelogFiles.isEmpty()) {
                messages.add(
                        buckets.newFiles(writer.partition, writer.paimonBucket, writer.dataFiles, writer.changelogFiles));
                writer.dataFiles.clear();
                writer.changelogFiles.clear();
            }
        }
        return messages;
    }

    @Override
    public boolean columnar() {
        return true;
    }

    @Override
    public void close() {
        try {
            buckets.abortAll(BucketWriter::abort);
        } finally {
            codecs.release();
        }
    }

    /** One Paimon bucket: its buffered records and the level-0 files flushed but not handed over. */
    private final class BucketWriter {
        final BinaryRow partition;
        final int paimonBucket;
        final KeyValueFile.Target files;
        final ChangelogBuffer buffer;
        final List<DataFileMeta> dataFiles = new ArrayList<>();
        final List<DataFileMeta> changelogFiles = new ArrayList<>();
        long nextSequence;

        BucketWriter(BinaryRow partition, int paimonBucket) {
            this.partition = partition;
            this.paimonBucket = paimonBucket;
            this.files = new KeyValueFile.Target(layout, partition, paimonBucket);
            this.buffer = new ChangelogBuffer(valueSchema, encoders, businessType, timestampMicros, keyColumns);
            this.nextSequence = RestoredSequence.maxSequence(table, partition, paimonBucket) + 1;
        }

        /**
         * Sorts the buffered records by key and writes them as a sorted run: every record into the changelog
         * files (when the table produces them from input), the last record of each key into the data files.
         * When no key repeats in the run (a KV snapshot load, or inserts of new keys), both hold the same rows
         * in the same order: the data files are encoded once and copied as the changelog files.
         */
        void flush() throws IOException {
            int rows = buffer.rows();
            if (rows == 0) {
                return;
            }
            int[] arrival = buffer.sortByKey();
            boolean copyChangelog = changelog && !files.external() && uniqueKeys(rows);
            int firstDataFile = dataFiles.size();
            ParquetSettings runSettings = settingsForSortedRun();
            KeyValueFile.Rolling data = files.rolling(false, runSettings, dataFiles);
            KeyValueFile.Rolling changes =
                    changelog && !copyChangelog ? files.rolling(true, runSettings, changelogFiles) : null;
            try {
                for (int row = 0; row < rows; row++) {
                    long sequence = nextSequence + arrival[row];
                    if (changes != null) {
                        changes.write(buffer, row, sequence);
                    }
                    if (row == rows - 1 || !buffer.sameKey(row, row + 1)) {
                        data.write(buffer, row, sequence);
                    }
                }
                data.finish();
                if (changes != null) {
                    changes.finish();
                }
            } catch (IOException | RuntimeException e) {
                data.abort();
                if (changes != null) {
                    changes.abort();
                }
                throw e;
            }
            if (copyChangelog) {
                files.copyAsChangelog(dataFiles.subList(firstDataFile, dataFiles.size()), changelogFiles);
            }
            nextSequence += rows;
            buffer.clear();
        }

        /**
         * The settings of the sorted run's files: without dictionary for the business columns whose first values
         * in key order are all different, as the log writer chooses them for its files (ParquetAppendWriter):
         * parquet-mr would hash each of those values into a dictionary only to drop it at the first page.
         */
        private ParquetSettings settingsForSortedRun() {
            if (settings.dictionarySetByTable()) {
                return settings;
            }
            Set<String> unique = new HashSet<>();
            for (int column = 0; column < businessColumns.size(); column++) {
                if (buffer.column(column).allDistinct(buffer.rows(), ParquetAppendWriter.MIN_ENCODING_SAMPLE,
                        ParquetAppendWriter.ENCODING_SAMPLE_ROWS)) {
                    unique.add(businessColumns.get(column));
                }
            }
            return unique.isEmpty() ? settings : plainSettings.computeIfAbsent(unique, settings::withoutDictionary);
        }

        /** Whether no two of the buffer's {@code rows} rows, in key order, hold the same key. */
        private boolean uniqueKeys(int rows) {
            for (int row = 1; row < rows; row++) {
                if (buffer.sameKey(row - 1, row)) {
                    return false;
                }
            }
            return true;
        }

        void abort() {
            files.delete(dataFiles);
            files.delete(changelogFiles);
            dataFiles.clear();
            changelogFiles.clear();
            buffer.clear();
        }
    }
}
