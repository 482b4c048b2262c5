package io.lakesync.tiering.columnar.write;

import io.lakesync.tiering.columnar.AppendRangeSink;
import io.lakesync.tiering.columnar.ArrowAppendRange;
import io.lakesync.tiering.columnar.ArrowBatchRecord;
import io.lakesync.tiering.lake.LakeWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.record.LogRecord;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.format.SimpleColStats;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataFilePathFactory;
import org.apache.paimon.manifest.FileSource;
import org.apache.paimon.shade.org.apache.parquet.column.statistics.Statistics;
import org.apache.paimon.shade.org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.paimon.shade.org.apache.parquet.hadoop.CodecFactory;
import org.apache.paimon.shade.org.apache.parquet.schema.MessageType;
import org.apache.paimon.shade.org.apache.parquet.schema.Type;
import org.apache.paimon.stats.SimpleStats;
import org.apache.paimon.stats.SimpleStatsConverter;
import org.apache.paimon.statistics.SimpleColStatsCollector;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeChecks;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.Pair;
import org.apache.paimon.utils.StatsCollectorFactories;

/**
 * The columnar write for Paimon append (log) tables stored as Parquet: each record's values go straight into
 * Parquet column writers ({@link ParquetDataFile}), read from the Arrow vectors when the record is an
 * {@link ArrowBatchRecord}, or a log batch comes as one {@link ArrowAppendRange} of rows ({@link ArrowColumns}),
 * and this writer produces the data files and metadata that Paimon's own append writer would: file names and
 * directories from the table's path factory, files rolled at {@code target-file-size}, sequence numbers as
 * {@code AppendOnlyWriter} assigns them (from 0 per round in a bucket-unaware table, after the bucket's newest file
 * otherwise), statistics per {@code metadata.stats-mode}, the schema id, file source APPEND. The files are
 * committed through the same commit messages as the row writer's. Closing the writer deletes every file it has not
 * handed over in {@link #complete()}. Encodings differ from Paimon's defaults where a dictionary cannot pay off, as
 * Paimon's own per-column option {@code parquet.enable.dictionary#<column> = false} would make them, unless the
 * table sets {@code parquet.enable.dictionary} itself: {@code __offset}, unique in every file, has no dictionary,
 * and neither has a column whose non-null values are all different in the first {@value #ENCODING_SAMPLE_ROWS} rows
 * of a file's first range, if there are at least {@value #MIN_ENCODING_SAMPLE} of them (ids, unique strings).
 * parquet-mr would hash every such value into a dictionary, find it bigger than the plain values at the first page
 * and re-encode them plain, so the file comes out the same. Only where later rows of the first page repeat enough
 * for a dictionary to pay off is the column plain where parquet-mr would have kept the dictionary: a larger file,
 * the same values, statistics and schema.
 *
 * <p>Which tables it serves: {@link #unsupportedReason}; any other table keeps Paimon's row writer.
 */
public final class ParquetAppendWriter implements LakeWriter, AppendRangeSink {

    /** Records between checks of the file size, as Paimon's rolling writer checks. */
    private static final int ROLLING_CHECK_RECORDS = 1000;
    /** Rows of a file's first range compared to choose its columns' encodings (see the class comment). */
    static final int ENCODING_SAMPLE_ROWS = 512;
    /** The fewest non-null values a column's sample needs before it may be written without dictionary. */
    static final int MIN_ENCODING_SAMPLE = 256;

    private final FileStoreTable table;
    private final RowType rowType;
    private final MessageType schema;
    private final ValueEncoder[] encoders;
    private final ArrowColumns arrowColumns;
    private final boolean timestampMicros;
    private final ParquetSettings settings;
    private final CodecFactory codecs;
    private final BytesInputCompressor compressor;
    private final long targetFileSize;
    private final SimpleColStatsCollector.Factory[] statsModes;
    private final SimpleStatsConverter statsConverter;
    private final boolean bucketUnaware;
    /** The files of each Paimon (partition, bucket). */
    private final BucketTargets<BucketFiles> files;
    /** The settings with the dictionary off for these business columns as well, per set chosen so far. */
    private final Map<Set<String>, ParquetSettings> plainSettings = new HashMap<>();

    /** Call only when {@link #unsupportedReason} is null for the table. */
    public ParquetAppendWriter(FileStoreTable table) {
        this.table = table;
        this.rowType = table.rowType();
        this.schema = ParquetSchemas.of(rowType);
        this.encoders = encoders(rowType, schema);
        if (encoders == null || !systemColumnsCovered(rowType)) {
            throw new IllegalArgumentException(unsupportedReason(table));
        }
        this.arrowColumns = new ArrowColumns(rowType, encoders);
        this.timestampMicros = DataTypeChecks.getPrecision(rowType.getTypeAt(rowType.getFieldCount() - 1)) > 3;
        CoreOptions options = table.coreOptions();
        // __offset is unique in every file of a log table; the page buffers are reused from page to page.
        String offsetColumn = rowType.getFieldNames().get(rowType.getFieldCount() - 2);
        ParquetSettings tableSettings = ParquetSettings.of(options, Set.of(offsetColumn));
        this.settings = tableSettings.withAllocator(
                new PageBufferPool(2L * schema.getColumns().size() * tableSettings.properties().getPageSizeThreshold()));
        this.codecs = new PageCodecFactory(settings.hadoopConf(), settings.properties().getPageSizeThreshold());
        this.compressor = codecs.getCompressor(settings.codec());
        this.targetFileSize = options.targetFileSize(false);
        this.statsModes = StatsCollectorFactories.createStatsFactories(options.statsMode(), options, rowType.getFieldNames());
        this.statsConverter = new SimpleStatsConverter(rowType, options.statsDenseStore());
        this.bucketUnaware = table.bucketMode() == BucketMode.BUCKET_UNAWARE;
        this.files = new BucketTargets<>(table, BucketFiles::new);
    }

    /** Why the table's data files cannot be written by this writer, or null when they can. */
    public static @Nullable String unsupportedReason(FileStoreTable table) {
        CoreOptions options = table.coreOptions();
        if (!table.primaryKeys().isEmpty()) {
            return "a primary-key table";
        }
        if (!"parquet".equals(options.fileFormatString())) {
            return "file format '" + options.fileFormatString() + "' (only parquet is written columnar)";
        }
        if (options.rowTrackingEnabled() || options.dataEvolutionEnabled() || options.deletionVectorsEnabled()) {
            return "row tracking, data evolution or deletion vectors are enabled";
        }
        String option = ParquetSettings.unsupportedOption(options.toMap());
        if (option != null) {
            return option + " (not reproduced by the columnar write)";
        }
        RowType rowType = table.rowType();
        if (!systemColumnsCovered(rowType)
                || encoders(rowType, ParquetSchemas.of(rowType)) == null) {
            return "a column type the columnar write does not cover (nested, or timestamp precision above 6)";
        }
        return null;
    }

    /** Whether the table ends with {@code __bucket INT, __offset BIGINT, __timestamp TIMESTAMP_LTZ(3 or 6)}. */
    static boolean systemColumnsCovered(RowType rowType) {
        int n = rowType.getFieldCount();
        return n >= 3
                && rowType.getTypeAt(n - 3).getTypeRoot() == DataTypeRoot.INTEGER
                && rowType.getTypeAt(n - 2).getTypeRoot() == DataTypeRoot.BIGINT
                && rowType.getTypeAt(n - 1).getTypeRoot() == DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                && DataTypeChecks.getPrecision(rowType.getTypeAt(n - 1)) <= 6;
    }

    /** One encoder per business column (all but the three system columns), or null if one is not covered. */
    static @Nullable ValueEncoder[] encoders(RowType rowType, MessageType schema) {
        int business = rowType.getFieldCount() - 3;
        ValueEncoder[] encoders = new ValueEncoder[business];
        for (int i = 0; i < business; i++) {
            Type parquetType = schema.getType(i);
            encoders[i] = parquetType.isPrimitive()
                    ? ValueEncoder.of(rowType.getTypeAt(i), parquetType.asPrimitiveType())
                    : null;
            if (encoders[i] == null) {
                return null;
            }
        }
        return encoders;
    }

    @Override
    public void write(TableBucket bucket, LogRecord record) throws Exception {
        files.of(bucket, record).write(record, bucket.getBucket());
    }

    /** Writes the range's rows as {@link #write} writes their records, in a loop over the rows. */
    @Override
    public void writeAppends(TableBucket bucket, ArrowAppendRange range) throws IOException {
        files.of(bucket, range.batchRecord()).write(range, bucket.getBucket());
    }

    @Override
    public List<CommitMessage> complete() throws Exception {
        List<CommitMessage> messages = new ArrayList<>();
        for (BucketFiles bucketFiles : files.all()) {
            bucketFiles.roll();
        }
        for (BucketFiles bucketFiles : files.all()) {
            if (!bucketFiles.finished.isEmpty()) {
                messages.add(files.newFiles(bucketFiles.partition, bucketFiles.paimonBucket, bucketFiles.finished, List.of()));
                bucketFiles.finished.clear();
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
            files.abortAll(BucketFiles::abort);
        } finally {
            codecs.release();
        }
    }

    /**
     * The settings of a file whose first rows are the range's from {@code row} on: without dictionary for the
     * business columns whose sampled values are all different (see the class comment).
     */
    private ParquetSettings settingsFor(ArrowAppendRange range, int row) {
        Set<String> unique = sampledUniqueColumns(range, row);
        return unique.isEmpty() ? settings : plainSettings.computeIfAbsent(unique, settings::withoutDictionary);
    }

    /**
     * The business columns to write without dictionary in a file whose first rows are the range's from
     * {@code row} on: none when the table sets the dictionary option itself.
     */
    Set<String> sampledUniqueColumns(ArrowAppendRange range, int row) {
        if (settings.dictionarySetByTable()) {
            return Set.of();
        }
        arrowColumns.bind(range.vectors(), range.batchId());
        Set<String> unique = new HashSet<>();
        List<String> names = rowType.getFieldNames();
        for (int column = 0; column < encoders.length; column++) {
            if (arrowColumns.allDistinct(column, row, range.endRow(), MIN_ENCODING_SAMPLE, ENCODING_SAMPLE_ROWS)) {
                unique.add(names.get(column));
            }
        }
        return unique;
    }

    /** The data files of one Paimon bucket: the one being written and those finished but not handed over. */
    private final class BucketFiles {
        final BinaryRow partition;
        final int paimonBucket;
        final DataFilePathFactory paths;
        final List<DataFileMeta> finished = new ArrayList<>();
        long nextSequence;
        @Nullable ParquetDataFile current;
        long currentMinSequence;

        BucketFiles(BinaryRow partition, int paimonBucket) {
            this.partition = partition;
            this.paimonBucket = paimonBucket;
            this.paths = table.store().pathFactory().createDataFilePathFactory(partition, paimonBucket);
            this.nextSequence = bucketUnaware ? 0 : RestoredSequence.maxSequence(table, partition, paimonBucket) + 1;
        }

        void write(LogRecord record, int flussBucket) throws IOException {
            ParquetDataFile file = currentFile();
            if (record instanceof ArrowBatchRecord arrow) {
                file.append(arrow, arrowColumns, flussBucket);
            } else {
                file.append(record, flussBucket);
            }
            nextSequence++;
            rollIfDue();
        }

        /** Writes the range in pieces that end where a record at a time would check the file size. */
        void write(ArrowAppendRange range, int flussBucket) throws IOException {
            for (int row = range.firstRow(); row < range.endRow(); ) {
                ParquetDataFile file = current != null ? current : open(settingsFor(range, row));
                int toSizeCheck = ROLLING_CHECK_RECORDS - (int) (file.rowCount() % ROLLING_CHECK_RECORDS);
                int end = Math.min(range.endRow(), row + toSizeCheck);
                file.append(range, row, end, arrowColumns, flussBucket);
                nextSequence += end - row;
                row = end;
                rollIfDue();
            }
        }

        private ParquetDataFile currentFile() throws IOException {
            return current != null ? current : open(settings);
        }

        private ParquetDataFile open(ParquetSettings fileSettings) throws IOException {
            current = new ParquetDataFile(
                    table.fileIO(), paths.newPath(), schema, encoders, timestampMicros, fileSettings, compressor);
            currentMinSequence = nextSequence;
            return current;
        }

        private void rollIfDue() throws IOException {
            if (current.rowCount() % ROLLING_CHECK_RECORDS == 0 && current.estimatedSize() >= targetFileSize) {
                roll();
            }
        }

        /** Finishes the file being written, if any, and keeps its metadata for the commit. */
        void roll() throws IOException {
            if (current == null) {
                return;
            }
            ParquetDataFile file = current;
            current = null;
            long size = file.finish();
            try {
                finished.add(meta(file, size));
            } catch (RuntimeException e) {
                file.abort();
                throw e;
            }
        }

        private DataFileMeta meta(ParquetDataFile file, long size) {
            Statistics<?>[] columnStats = file.columnStatistics();
            SimpleColStatsCollector[] modes = SimpleColStatsCollector.create(statsModes);
            SimpleColStats[] stats = new SimpleColStats[columnStats.length];
            for (int i = 0; i < stats.length; i++) {
                DataType type = rowType.getTypeAt(i);
                stats[i] = ColumnStatistics.toPaimon(type, columnStats[i], modes[i]);
            }
            Pair<List<String>, SimpleStats> valueStats = statsConverter.toBinary(stats);
            return DataFileMeta.forAppend(
                    file.path().getName(),
                    size,
                    file.rowCount(),
                    valueStats.getRight(),
                    currentMinSequence,
                    currentMinSequence + file.rowCount() - 1,
                    table.schema().id(),
                    List.of(),
                    null,
                    FileSource.APPEND,
                    valueStats.getLeft(),
                    paths.isExternalPath() ? file.path().toString() : null,
                    null,
                    null);
        }

        void abort() {
            if (current != null) {
                current.abort();
                current = null;
            }
            for (DataFileMeta meta : finished) {
                table.fileIO().deleteQuietly(paths.toPath(meta));
            }
            finished.clear();
        }
    }
}
