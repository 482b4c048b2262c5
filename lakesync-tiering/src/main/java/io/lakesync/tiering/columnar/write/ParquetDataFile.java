package io.lakesync.tiering.columnar.write;

import io.lakesync.tiering.columnar.ArrowAppendRange;
import io.lakesync.tiering.columnar.ArrowBatchRecord;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.shaded.arrow.org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.paimon.format.parquet.writer.StreamOutputFile;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.shade.org.apache.parquet.column.ColumnDescriptor;
import org.apache.paimon.shade.org.apache.parquet.column.ColumnWriteStore;
import org.apache.paimon.shade.org.apache.parquet.column.ColumnWriter;
import org.apache.paimon.shade.org.apache.parquet.column.statistics.Statistics;
import org.apache.paimon.shade.org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.paimon.shade.org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.paimon.shade.org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.paimon.shade.org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.paimon.shade.org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.paimon.shade.org.apache.parquet.schema.MessageType;

/**
 * One Parquet data file being written: each record's values go straight into the file's column writers (no
 * Paimon row, no record-level Parquet consumer), row groups are flushed when their buffered size reaches the
 * row-group size, as parquet-mr's own writer decides it, and the column statistics come from the writer's
 * footer in memory once the file is finished, without reading the file back.
 *
 * <pre>
 *   OPEN --append()*--> OPEN --finish()--> FINISHED
 *     \--abort()--> ABORTED (file deleted)
 * </pre>
 */
final class ParquetDataFile {

    /** Row counts between checks of the buffered size, as parquet-mr's record writer bounds them. */
    private static final int MIN_ROWS_BETWEEN_CHECKS = 100;
    private static final int MAX_ROWS_BETWEEN_CHECKS = 10_000;

    private final FileIO fileIO;
    private final Path path;
    private final MessageType schema;
    private final ParquetSettings settings;
    private final BytesInputCompressor compressor;
    private final ValueEncoder[] encoders;
    private final int businessFields;
    private final boolean timestampMicros;
    private final PositionOutputStream out;
    private final ParquetFileWriter fileWriter;
    private final ColumnWriter[] columns;
    private final int[] maxDefinitionLevels;
    private ColumnChunkPageWriteStore pageStore;
    private ColumnWriteStore columnStore;
    private long rows;
    private long rowsInGroup;
    private long nextGroupCheck = MIN_ROWS_BETWEEN_CHECKS;
    private long finishedSize = -1;

    /**
     * {@code encoders}: one per business column of {@code schema}, which ends with the three system columns;
     * {@code timestampMicros}: whether {@code __timestamp} holds microseconds (precision 6, as older Fluss
     * versions created it) rather than milliseconds.
     */
    ParquetDataFile(
            FileIO fileIO,
            Path path,
            MessageType schema,
            ValueEncoder[] encoders,
            boolean timestampMicros,
            ParquetSettings settings,
            BytesInputCompressor compressor)
            throws IOException {
        this.fileIO = fileIO;
        this.path = path;
        this.schema = schema;
        this.settings = settings;
        this.compressor = compressor;
        this.encoders = encoders;
        this.businessFields = encoders.length;
        this.timestampMicros = timestampMicros;
        this.columns = new ColumnWriter[schema.getColumns().size()];
        this.maxDefinitionLevels = new int[columns.length];
        for (int i = 0; i < columns.length; i++) {
            maxDefinitionLevels[i] = schema.getColumns().get(i).getMaxDefinitionLevel();
        }
        this.out = new BufferedPositionOutputStream(fileIO.newOutputStream(path, false));
        try {
            this.fileWriter = new ParquetFileWriter(
                    new StreamOutputFile(out),
                    schema,
                    ParquetFileWriter.Mode.CREATE,
                    settings.rowGroupSize(),
                    settings.maxPaddingSize(),
                    null,
                    settings.properties());
            fileWriter.start();
        } catch (IOException | RuntimeException e) {
            abort();
            throw e;
        }
        startRowGroup();
    }

    Path path() {
        return path;
    }

    long rowCount() {
        return rows;
    }

    /** Bytes written so far, buffered ones included (what Paimon's rolling writer compares to the target size). */
    long estimatedSize() throws IOException {
        return fileWriter.getPos() + columnStore.getBufferedSize();
    }

    /** Appends one record of Fluss bucket {@code bucket}, with {@code __bucket}, {@code __offset}, {@code __timestamp}. */
    void append(LogRecord record, int bucket) throws IOException {
        InternalRow row = record.getRow();
        int present = row.getFieldCount();
        checkWidth(present);
        for (int i = 0; i < businessFields; i++) {
            if (i >= present || row.isNullAt(i)) {
                writeNull(i);
            } else {
                encoders[i].write(row, i, columns[i], maxDefinitionLevels[i]);
            }
        }
        endRecord(record.logOffset(), timestamp(record.timestamp()), bucket);
    }

    /** {@link #append(LogRecord, int)} for a record of an Arrow batch, its values read from the batch's vectors. */
    void append(ArrowBatchRecord record, ArrowColumns vectors, int bucket) throws IOException {
        bind(vectors, record.vectors(), record.batchId());
        writeArrowValues(vectors, record.getRow(), record.rowId(), record.rowId() + 1);
        endRecord(record.logOffset(), timestamp(record.timestamp()), bucket);
    }

    /**
     * Appends rows {@code [from, to)} of the range's batch, of Fluss bucket {@code bucket}, their values read from
     * the batch's vectors: the same values, and the same pages, as {@link #append(ArrowBatchRecord, ArrowColumns,
     * int)} for each of their records, without a record object per row. Column by column over the rows up to the
     * next point where parquet-mr checks its page sizes or this file its row-group size (the only points where
     * buffered values decide anything, see {@link PageSizeChecks}), so each column's values go out in one loop;
     * row by row where a column is read through the row view, or where those points are not known.
     */
    void append(ArrowAppendRange range, int from, int to, ArrowColumns vectors, int bucket) throws IOException {
        bind(vectors, range.vectors(), range.batchId());
        long timestamp = timestamp(range.timestamp());
        if (vectors.readsRowView() || !PageSizeChecks.KNOWN) {
            for (int row = from; row < to; row++) {
                writeArrowValues(vectors, vectors.readsRowView() ? range.rowAt(row) : null, row, row + 1);
                endRecord(range.offsetOf(row), timestamp, bucket);
            }
            return;
        }
        for (int row = from; row < to; ) {
            // At least one row: a row-group check already due runs at the next row's end, as row by row.
            long beforeCheck = Math.min(
                    PageSizeChecks.rowsBeforeNext(columnStore, rowsInGroup), nextGroupCheck - rowsInGroup);
            int end = (int) Math.min(to, row + Math.max(1, beforeCheck));
            writeArrowValues(vectors, null, row, end);
            for (int r = row; r < end; r++) {
                columns[businessFields].write(bucket, 0, maxDefinitionLevels[businessFields]);
            }
            for (int r = row; r < end; r++) {
                columns[businessFields + 1].write(range.offsetOf(r), 0, maxDefinitionLevels[businessFields + 1]);
            }
            for (int r = row; r < end; r++) {
                columns[businessFields + 2].write(timestamp, 0, maxDefinitionLevels[businessFields + 2]);
            }
            for (int r = row; r < end; r++) {
                endRow();
            }
            row = end;
        }
    }

    private void bind(ArrowColumns vectors, VectorSchemaRoot root, long batchId) {
        vectors.bind(root, batchId);
        checkWidth(vectors.batchWidth());
    }

    /**
     * Writes the business columns of rows {@code [from, to)} of the bound batch, column by column; {@code rowView}:
     * see {@link ArrowColumns}.
     */
    private void writeArrowValues(ArrowColumns vectors, @Nullable InternalRow rowView, int from, int to) {
        int present = vectors.present();
        for (int i = 0; i < businessFields; i++) {
            if (i >= present) {
                for (int row = from; row < to; row++) {
                    writeNull(i);
                }
            } else {
                if (maxDefinitionLevels[i] == 0 && vectors.hasNull(i, from, to)) {
                    throw nullInNotNullColumn(i);
                }
                vectors.write(i, rowView, from, to, columns[i], maxDefinitionLevels[i]);
            }
        }
    }

    private void checkWidth(int present) {
        if (present > businessFields) {
            throw new IllegalStateException("The Fluss record has " + present + " columns but the lake table only "
                    + businessFields + ": the lake schema is not yet synchronized with the Fluss table.");
        }
    }

    /** {@code __timestamp}'s value for a record's timestamp in milliseconds. */
    private long timestamp(long millis) {
        return timestampMicros ? Math.multiplyExact(millis, 1000L) : millis;
    }

    /** Writes the system columns and ends the record. */
    private void endRecord(long offset, long timestamp, int bucket) throws IOException {
        columns[businessFields].write(bucket, 0, maxDefinitionLevels[businessFields]);
        columns[businessFields + 1].write(offset, 0, maxDefinitionLevels[businessFields + 1]);
        columns[businessFields + 2].write(timestamp, 0, maxDefinitionLevels[businessFields + 2]);
        endRow();
    }

    /** The column writer of column {@code column} of the schema, for a caller that writes rows itself. */
    ColumnWriter column(int column) {
        return columns[column];
    }

    int maxDefinitionLevel(int column) {
        return maxDefinitionLevels[column];
    }

    /** Ends a row whose every column the caller has written through {@link #column}. */
    void endRow() throws IOException {
        columnStore.endRecord();
        rows++;
        rowsInGroup++;
        if (rowsInGroup >= nextGroupCheck) {
            checkRowGroupSize();
        }
    }

    private void writeNull(int column) {
        if (maxDefinitionLevels[column] == 0) {
            throw nullInNotNullColumn(column);
        }
        columns[column].writeNull(0, maxDefinitionLevels[column] - 1);
    }

    private IllegalArgumentException nullInNotNullColumn(int column) {
        return new IllegalArgumentException("Column '" + schema.getFields().get(column).getName()
                + "' of the lake table is NOT NULL but the record holds null.");
    }

    /**
     * Flushes the row group once it is within about two rows of the row-group size; otherwise schedules the next
     * check halfway to the size by the average row size. The same rule and arithmetic as parquet-mr's record
     * writer, so the row groups end where Paimon's writer ends them.
     */
    private void checkRowGroupSize() throws IOException {
        long buffered = columnStore.getBufferedSize();
        long rowSize = buffered / rowsInGroup;
        if (buffered > settings.rowGroupSize() - 2 * rowSize) {
            flushRowGroup();
            startRowGroup();
            return;
        }
        nextGroupCheck = Math.min(
                Math.max(MIN_ROWS_BETWEEN_CHECKS, (rowsInGroup + (long) (settings.rowGroupSize() / (float) rowSize)) / 2),
                rowsInGroup + MAX_ROWS_BETWEEN_CHECKS);
    }

    private void startRowGroup() {
        pageStore = new ColumnChunkPageWriteStore(
                compressor,
                schema,
                settings.properties().getAllocator(),
                settings.properties().getColumnIndexTruncateLength(),
                settings.properties().getPageWriteChecksumEnabled());
        columnStore = settings.properties().newColumnWriteStore(schema, pageStore, pageStore);
        List<ColumnDescriptor> descriptors = schema.getColumns();
        for (int i = 0; i < columns.length; i++) {
            columns[i] = columnStore.getColumnWriter(descriptors.get(i));
        }
        rowsInGroup = 0;
        nextGroupCheck = MIN_ROWS_BETWEEN_CHECKS;
    }

    private void flushRowGroup() throws IOException {
        if (rowsInGroup > 0) {
            fileWriter.startBlock(rowsInGroup);
            columnStore.flush();
            pageStore.flushToFileWriter(fileWriter);
            fileWriter.endBlock();
        }
        columnStore.close();
        pageStore.close();
    }

    /** Writes the last row group and the footer, closes the file; returns its size in bytes. */
    long finish() throws IOException {
        try {
            flushRowGroup();
            fileWriter.end(Map.of());
            finishedSize = out.getPos();
            out.close();
            return finishedSize;
        } catch (IOException | RuntimeException e) {
            abort();
            throw e;
        }
    }

    /** Per column of the schema, its statistics over all row groups; call after {@link #finish()}. */
    Statistics<?>[] columnStatistics() {
        Statistics<?>[] merged = new Statistics<?>[columns.length];
        for (BlockMetaData block : fileWriter.getFooter().getBlocks()) {
            List<ColumnChunkMetaData> chunks = block.getColumns();
            for (int i = 0; i < merged.length; i++) {
                Statistics<?> stats = chunks.get(i).getStatistics();
                if (merged[i] == null) {
                    merged[i] = stats.copy();
                } else {
                    merged[i].mergeStatistics(stats);
                }
            }
        }
        return merged;
    }

    /** Closes the file if still open and deletes it. */
    void abort() {
        try {
            out.close();
        } catch (IOException | RuntimeException e) {
            // Deleted below in any case.
        }
        fileIO.deleteQuietly(path);
    }
}
