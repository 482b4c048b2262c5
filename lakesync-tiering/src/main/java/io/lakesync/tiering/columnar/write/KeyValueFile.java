package io.lakesync.tiering.columnar.write;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryRowWriter;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.format.SimpleColStats;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataFilePathFactory;
import org.apache.paimon.manifest.FileSource;
import org.apache.paimon.shade.org.apache.parquet.column.statistics.Statistics;
import org.apache.paimon.shade.org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.paimon.shade.org.apache.parquet.schema.MessageType;
import org.apache.paimon.stats.SimpleStats;
import org.apache.paimon.stats.SimpleStatsConverter;
import org.apache.paimon.statistics.SimpleColStatsCollector;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeChecks;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.Pair;
import org.apache.paimon.utils.StatsCollectorFactories;

/**
 * One level-0 file of a primary-key table in Paimon's key-value layout ({@code _KEY_<key>...},
 * {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND}, then the table's columns), written row by row from a
 * {@link ChangelogBuffer} in key order, with the {@link DataFileMeta} Paimon's key-value file writer gives it:
 * the first and last key written as min and max key, key statistics for every key column, value statistics per
 * {@code metadata.stats-mode} (dense or not as the table stores them), the sequence range, retractions
 * (-U, -D) as deleted rows, level 0, file source APPEND.
 */
final class KeyValueFile {

    /** Records between checks of the file size, as Paimon's rolling writer checks. */
    private static final int ROLLING_CHECK_RECORDS = 1000;

    private final Layout layout;
    private final ParquetDataFile file;
    private final ChangelogBuffer buffer;
    private int firstRow = -1;
    private int lastRow;
    private long minSequence = Long.MAX_VALUE;
    private long maxSequence = Long.MIN_VALUE;
    private long retractions;

    private KeyValueFile(Layout layout, ParquetDataFile file, ChangelogBuffer buffer) {
        this.layout = layout;
        this.file = file;
        this.buffer = buffer;
    }

    private void write(int row, long sequence) throws IOException {
        int[] keyColumns = layout.keyColumns;
        int keys = keyColumns.length;
        for (int i = 0; i < keys; i++) {
            buffer.writeTo(row, keyColumns[i], file.column(i), file.maxDefinitionLevel(i));
        }
        file.column(keys).write(sequence, 0, file.maxDefinitionLevel(keys));
        RowKind kind = buffer.kind(row);
        file.column(keys + 1).write((int) kind.toByteValue(), 0, file.maxDefinitionLevel(keys + 1));
        int values = layout.fileSchema.getFieldCount() - keys - 2;
        for (int i = 0; i < values; i++) {
            int column = keys + 2 + i;
            buffer.writeTo(row, i, file.column(column), file.maxDefinitionLevel(column));
        }
        file.endRow();
        if (firstRow < 0) {
            firstRow = row;
        }
        lastRow = row;
        minSequence = Math.min(minSequence, sequence);
        maxSequence = Math.max(maxSequence, sequence);
        if (kind.isRetract()) {
            retractions++;
        }
    }

    /** Finishes the file; its metadata as Paimon's key-value file writer builds it. */
    private DataFileMeta finish(boolean external) throws IOException {
        long size = file.finish();
        try {
            return meta(size, external);
        } catch (RuntimeException e) {
            file.abort();
            throw e;
        }
    }

    private DataFileMeta meta(long size, boolean external) {
        Statistics<?>[] columnStats = file.columnStatistics();
        SimpleColStatsCollector[] modes = SimpleColStatsCollector.create(layout.statsModes);
        SimpleColStats[] stats = new SimpleColStats[columnStats.length];
        for (int i = 0; i < stats.length; i++) {
            stats[i] = ColumnStatistics.toPaimon(layout.fileType.getTypeAt(i), columnStats[i], modes[i]);
        }
        int keys = layout.keyColumns.length;
        SimpleStats keyStats = layout.keyStats.toBinaryAllMode(Arrays.copyOfRange(stats, 0, keys));
        Pair<List<String>, SimpleStats> valueStats =
                layout.valueStats.toBinary(Arrays.copyOfRange(stats, keys + 2, stats.length));
        return DataFileMeta.create(
                file.path().getName(),
                size,
                file.rowCount(),
                layout.key(buffer, firstRow),
                layout.key(buffer, lastRow),
                keyStats,
                valueStats.getRight(),
                minSequence,
                maxSequence,
                layout.schemaId,
                0,
                List.of(),
                retractions,
                null,
                FileSource.APPEND,
                valueStats.getLeft(),
                external ? file.path().toString() : null,
                null,
                null);
    }

    /** What all key-value files of one table share: schema, compressor, statistics, target size. */
    static final class Layout {
        private final FileStoreTable table;
        private final RowType keyType;
        private final RowType fileType;
        private final MessageType fileSchema;
        private final int[] keyColumns;
        private final BytesInputCompressor compressor;
        private final SimpleColStatsCollector.Factory[] statsModes;
        private final SimpleStatsConverter keyStats;
        private final SimpleStatsConverter valueStats;
        private final long targetFileSize;
        private final long schemaId;

        /**
         * {@code fileType}/{@code fileSchema}: the key-value layout of {@code keyType} and the table's columns;
         * {@code keyColumns}: the key's positions among the table's columns.
         */
        Layout(
                FileStoreTable table,
                RowType keyType,
                RowType fileType,
                MessageType fileSchema,
                int[] keyColumns,
                BytesInputCompressor compressor) {
            this.table = table;
            this.keyType = keyType;
            this.fileType = fileType;
            this.fileSchema = fileSchema;
            this.keyColumns = keyColumns;
            this.compressor = compressor;
            CoreOptions options = table.coreOptions();
            this.statsModes = StatsCollectorFactories.createStatsFactories(
                    options.statsMode(), options, fileType.getFieldNames(), List.of());
            this.keyStats = new SimpleStatsConverter(keyType);
            this.valueStats = new SimpleStatsConverter(table.rowType(), options.statsDenseStore());
            this.targetFileSize = options.targetFileSize(true);
            this.schemaId = table.schema().id();
        }

        /** Row {@code row}'s key as the binary row Paimon keeps as a file's min or max key. */
        private BinaryRow key(ChangelogBuffer buffer, int row) {
            BinaryRow key = new BinaryRow(keyColumns.length);
            BinaryRowWriter writer = new BinaryRowWriter(key);
            for (int i = 0; i < keyColumns.length; i++) {
                DataType type = keyType.getTypeAt(i);
                Object value = buffer.column(keyColumns[i]).value(row);
                switch (type.getTypeRoot()) {
                    case BOOLEAN -> writer.writeBoolean(i, (Integer) value != 0);
                    case TINYINT -> writer.writeByte(i, (byte) (int) (Integer) value);
                    case SMALLINT -> writer.writeShort(i, (short) (int) (Integer) value);
                    case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE -> writer.writeInt(i, (Integer) value);
                    case BIGINT -> writer.writeLong(i, (Long) value);
                    case CHAR, VARCHAR -> writer.writeString(i, BinaryString.fromBytes((byte[]) value));
                    case DECIMAL -> {
                        int precision = DataTypeChecks.getPrecision(type);
                        long unscaled = ((Number) value).longValue();
                        writer.writeDecimal(
                                i, Decimal.fromUnscaledLong(unscaled, precision, DataTypeChecks.getScale(type)), precision);
                    }
                    case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
                        int precision = DataTypeChecks.getPrecision(type);
                        long stored = (Long) value;
                        writer.writeTimestamp(
                                i,
                                precision <= 3 ? Timestamp.fromEpochMillis(stored) : Timestamp.fromMicros(stored),
                                precision);
                    }
                    default -> throw new IllegalStateException("Key type " + type + " is not written columnar");
                }
            }
            writer.complete();
            return key;
        }
    }

    /** The level-0 files of one Paimon bucket. */
    static final class Target {
        private final Layout layout;
        private final DataFilePathFactory paths;

        Target(Layout layout, BinaryRow partition, int bucket) {
            this.layout = layout;
            this.paths = layout.table.store().pathFactory().createDataFilePathFactory(partition, bucket);
        }

        /**
         * A sorted run's data files ({@code changelog} false) or changelog files, written with {@code settings}
         * (the layout's, or those with the dictionary off for more columns), their metadata into {@code sink}.
         */
        Rolling rolling(boolean changelog, ParquetSettings settings, List<DataFileMeta> sink) {
            return new Rolling(this, changelog, settings, sink);
        }

        /** Whether the files go to an external path (their metadata then names it). */
        boolean external() {
            return paths.isExternalPath();
        }

        /** Copies each data file as a changelog file of the same rows and metadata, into {@code sink}. */
        void copyAsChangelog(List<DataFileMeta> dataFiles, List<DataFileMeta> sink) throws IOException {
            FileIO fileIO = layout.table.fileIO();
            for (DataFileMeta data : dataFiles) {
                Path copy = paths.newChangelogPath();
                try {
                    fileIO.copyFile(paths.toPath(data), copy, false);
                } catch (IOException | RuntimeException e) {
                    fileIO.deleteQuietly(copy);
                    throw e;
                }
                sink.add(data.rename(copy.getName()));
            }
        }

        void delete(List<DataFileMeta> files) {
            for (DataFileMeta meta : files) {
                layout.table.fileIO().deleteQuietly(paths.toPath(meta));
            }
        }
    }

    /** Files of one sorted run, rolled at {@code target-file-size} as Paimon's rolling writer rolls them. */
    static final class Rolling {
        private final Target target;
        private final boolean changelog;
        private final ParquetSettings settings;
        private final List<DataFileMeta> sink;
        private final int firstOfRun;
        private @Nullable KeyValueFile current;

        private Rolling(Target target, boolean changelog, ParquetSettings settings, List<DataFileMeta> sink) {
            this.target = target;
            this.changelog = changelog;
            this.settings = settings;
            this.sink = sink;
            this.firstOfRun = sink.size();
        }

        void write(ChangelogBuffer buffer, int row, long sequence) throws IOException {
            if (current == null) {
                Layout layout = target.layout;
                ParquetDataFile file = new ParquetDataFile(
                        layout.table.fileIO(),
                        changelog ? target.paths.newChangelogPath() : target.paths.newPath(),
                        layout.fileSchema,
                        new ValueEncoder[0],
                        false,
                        settings,
                        layout.compressor);
                current = new KeyValueFile(layout, file, buffer);
            }
            current.write(row, sequence);
            long rows = current.file.rowCount();
            if (rows % ROLLING_CHECK_RECORDS == 0 && current.file.estimatedSize() >= target.layout.targetFileSize) {
                finish();
            }
        }

        /** Finishes the file being written, if any. */
        void finish() throws IOException {
            if (current != null) {
                KeyValueFile file = current;
                current = null;
                sink.add(file.finish(target.paths.isExternalPath()));
            }
        }

        /** Deletes the run's files: the one being written and those it finished. */
        void abort() {
            if (current != null) {
                current.file.abort();
                current = null;
            }
            List<DataFileMeta> finished = sink.subList(firstOfRun, sink.size());
            target.delete(finished);
            finished.clear();
        }
    }
}
