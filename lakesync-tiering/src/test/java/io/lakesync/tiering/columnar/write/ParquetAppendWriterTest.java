package io.lakesync.tiering.columnar.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.tiering.columnar.AppendRangeSink;
import io.lakesync.tiering.columnar.ArrowAppendRange;
import io.lakesync.tiering.columnar.ArrowBatchRecord;
import io.lakesync.tiering.columnar.InMemoryArrowBatches;
import io.lakesync.tiering.columnar.RecordSink;
import io.lakesync.tiering.lake.LakeTableWriter;
import io.lakesync.tiering.lake.LakeWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.GenericRecord;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.RowType;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.format.parquet.ParquetUtil;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.shade.org.apache.parquet.column.ColumnDescriptor;
import org.apache.paimon.shade.org.apache.parquet.column.ParquetProperties;
import org.apache.paimon.shade.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.paimon.shade.org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.paimon.shade.org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.paimon.shade.org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.paimon.shade.org.apache.parquet.schema.Types;
import org.apache.paimon.stats.SimpleStats;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The columnar Parquet writer against Paimon's own row writer ({@link LakeTableWriter}), on real Paimon tables
 * on disk laid out as Fluss's tiering creates them: the same records (every type a Fluss log table holds, with
 * nulls, multi-byte strings, pre-1970 timestamps, decimals of all three widths) written in two commits through
 * each must read back identically through Paimon's reader, the data files' metadata (row counts, sequence
 * numbers, statistics, schema id, file source, buckets) must be the same, file by file, rolling included, and so
 * must the files' Parquet layout (row groups, pages, encodings, dictionary pages, sizes), also for files of many
 * pages and row groups with pages of nulls only. Paimon's side writes {@code __offset} without dictionary, by
 * Paimon's per-column option, as the columnar write does by itself.
 */
class ParquetAppendWriterTest {

    private static final int RECORDS_PER_ROUND = 3_000;
    /** Records per chunk written through Arrow batches (one batch per bucket per chunk). */
    private static final int ARROW_CHUNK = 500;
    /** Records per chunk written as ranges: not a divisor of the 1,000 records between file-size checks. */
    private static final int RANGE_CHUNK = 333;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "buckets {0}, target file size {1}, page size {2}, row group size {3}")
    @CsvSource({
        "2, 128mb, 1048576, 128mb",
        "-1, 128mb, 1048576, 128mb",
        "2, 1kb, 1048576, 128mb",
        "2, 128mb, 1024, 32kb" // many pages (all-null ones among them) and row groups per file
    })
    void writesWhatPaimonsRowWriterWrites(int buckets, String targetFileSize, int pageSize, String rowGroupSize)
            throws Exception {
        Map<String, String> options = Map.of(
                "target-file-size", targetFileSize,
                "parquet.page.size", String.valueOf(pageSize),
                "file.block-size", rowGroupSize);
        Map<String, String> rowOptions = offsetWithoutDictionary(options);
        FileStoreTable rows = table("rows", buckets, rowOptions);
        FileStoreTable columns = table("columns", buckets, options);
        FileStoreTable arrow = table("arrow", buckets, options);
        for (int round = 0; round < 2; round++) {
            List<LogRecord> records = records(round * RECORDS_PER_ROUND, RECORDS_PER_ROUND);
            commit(rows, new LakeTableWriter(rows, false, dir.resolve("io")), records);
            commit(columns, new ParquetAppendWriter(columns), records);
            commitThroughArrowBatches(arrow, records);
        }

        List<List<Object>> rowsRead = read(rows);
        assertThat(read(columns)).hasSize(2 * RECORDS_PER_ROUND).containsExactlyElementsOf(rowsRead);
        assertThat(read(arrow)).as("values read from the Arrow vectors").containsExactlyElementsOf(rowsRead);
        List<List<Object>> columnFiles = files(columns);
        assertThat(columnFiles).isEqualTo(files(rows));
        assertThat(files(arrow)).isEqualTo(columnFiles);
        if (targetFileSize.equals("1kb")) {
            assertThat(columnFiles.size()).as("files rolled at the target size").isGreaterThan(2 * 2);
        }
        for (ManifestEntry entry : columns.store().newScan().plan().files()) {
            Path file = dataFile(columns, entry);
            assertThat(Files.size(file)).as("recorded file size").isEqualTo(entry.file().fileSize());
        }
        assertThat(layout(arrow)).as("pages, row groups and encodings").isEqualTo(layout(rows));
        if (pageSize == 1024) {
            assertThat(layout(arrow)).allSatisfy(file -> assertThat(file).hasSizeGreaterThan(2));
        }
    }

    @Test
    void theOffsetColumnHasNoDictionaryUnlessTheTableSetsOne() {
        ColumnDescriptor offset = column("__offset");
        ColumnDescriptor string = column("s");
        ParquetProperties defaults = settings(Map.of()).properties();
        assertThat(defaults.isDictionaryEnabled(offset)).isFalse();
        assertThat(defaults.isDictionaryEnabled(string)).isTrue();
        assertThat(settings(Map.of("parquet.enable.dictionary", "true")).properties().isDictionaryEnabled(offset))
                .as("the table's own dictionary option")
                .isTrue();
        assertThat(settings(Map.of("parquet.enable.dictionary", "false")).properties().isDictionaryEnabled(string))
                .isFalse();
    }

    private static ParquetSettings settings(Map<String, String> tableOptions) {
        return ParquetSettings.of(CoreOptions.fromMap(tableOptions), Set.of("__offset"));
    }

    private static ColumnDescriptor column(String name) {
        return new ColumnDescriptor(new String[] {name}, Types.optional(PrimitiveTypeName.INT64).named(name), 0, 1);
    }

    @Test
    void closingWithoutCompletingDeletesTheWrittenFiles() throws Exception {
        FileStoreTable table = table("aborted", 2, Map.of("target-file-size", "1kb"));
        try (ParquetAppendWriter writer = new ParquetAppendWriter(table)) {
            for (LogRecord record : records(0, RECORDS_PER_ROUND)) {
                writer.write(new TableBucket(1, bucketOf(record)), record);
            }
            assertThat(dataFiles(table)).as("files rolled while writing").isNotEmpty();
        }
        assertThat(dataFiles(table)).isEmpty();
    }

    @Test
    void aRecordWiderThanTheLakeTableFailsNamingTheCause() throws Exception {
        FileStoreTable table = table("narrow", 2, Map.of());
        GenericRow wide = new GenericRow(FIELDS.length + 1);
        try (ParquetAppendWriter writer = new ParquetAppendWriter(table)) {
            assertThatThrownBy(() -> writer.write(
                            new TableBucket(1, 0), new GenericRecord(0, 0, ChangeType.APPEND_ONLY, wide)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("lake schema is not yet synchronized");
        }
    }

    @Test
    void tablesItDoesNotCoverKeepTheRowWriter() throws Exception {
        assertThat(ParquetAppendWriter.unsupportedReason(table("plain", 2, Map.of()))).isNull();
        assertThat(ParquetAppendWriter.unsupportedReason(table("orc", 2, Map.of("file.format", "orc"))))
                .contains("file format 'orc'");
        assertThat(ParquetAppendWriter.unsupportedReason(
                        table("indexed", 2, Map.of("file-index.bloom-filter.columns", "id"))))
                .contains("file-index.bloom-filter.columns");
        Schema.Builder nanos = Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("at", DataTypes.TIMESTAMP(9));
        assertThat(ParquetAppendWriter.unsupportedReason(create("nanos", withSystemColumns(nanos), 2, Map.of())))
                .contains("column type");
        Schema.Builder keyed = withSystemColumns(Schema.newBuilder().column("id", DataTypes.BIGINT().notNull()))
                .primaryKey("id");
        assertThat(ParquetAppendWriter.unsupportedReason(create("keyed", keyed, 2, Map.of())))
                .contains("primary-key");
    }

    private static final String[] FIELDS = {
        "id", "s", "c", "b", "bin", "flag", "t", "sm", "i", "f", "d", "dec_small", "dec_long", "dec_wide",
        "day", "tm", "ts3", "ts6", "ltz3", "ltz6", "sparse"
    };

    private static final DataType[] TYPES = {
        DataTypes.BIGINT(), DataTypes.STRING(), DataTypes.CHAR(5), DataTypes.BYTES(), DataTypes.BINARY(4),
        DataTypes.BOOLEAN(), DataTypes.TINYINT(), DataTypes.SMALLINT(), DataTypes.INT(), DataTypes.FLOAT(),
        DataTypes.DOUBLE(), DataTypes.DECIMAL(5, 2), DataTypes.DECIMAL(18, 4), DataTypes.DECIMAL(30, 6),
        DataTypes.DATE(), DataTypes.TIME(), DataTypes.TIMESTAMP(3), DataTypes.TIMESTAMP(6),
        DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3), DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6), DataTypes.STRING()
    };

    private FileStoreTable table(String name, int buckets, Map<String, String> options) throws Exception {
        Schema.Builder schema = Schema.newBuilder();
        for (int i = 0; i < FIELDS.length; i++) {
            schema.column(FIELDS[i], TYPES[i]);
        }
        return create(name, withSystemColumns(schema), buckets, options);
    }

    private static Schema.Builder withSystemColumns(Schema.Builder schema) {
        return schema.column("__bucket", DataTypes.INT())
                .column("__offset", DataTypes.BIGINT())
                .column("__timestamp", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3));
    }

    private FileStoreTable create(String name, Schema.Builder schema, int buckets, Map<String, String> options)
            throws Exception {
        schema.option("bucket", String.valueOf(buckets));
        if (buckets > 0) {
            schema.option("bucket-key", "id");
        }
        options.forEach(schema::option);
        org.apache.paimon.fs.Path path = new org.apache.paimon.fs.Path(dir.resolve(name).toUri());
        LocalFileIO fileIO = LocalFileIO.create();
        new SchemaManager(fileIO, path).createTable(schema.build());
        return FileStoreTableFactory.create(fileIO, path);
    }

    private static List<LogRecord> records(int from, int count) {
        List<LogRecord> records = new ArrayList<>();
        for (int n = from; n < from + count; n++) {
            boolean nulls = n % 9 == 4;
            long sign = n % 2 == 0 ? 1 : -1;
            // Sub-millisecond digits only after 1970: Fluss 0.9.1 cannot decode earlier ones from Arrow.
            int subMillisNanos = sign > 0 ? n % 1000 * 1000 : 0;
            GenericRow row = GenericRow.of(
                    (long) n,
                    nulls ? null : BinaryString.fromString("名前-" + n + "-ü€😀".repeat(n % 5)),
                    nulls ? null : BinaryString.fromString("c" + n % 1000),
                    nulls ? null : ("bytes-" + n).getBytes(),
                    nulls ? null : new byte[] {(byte) n, (byte) (n >> 8), 0, (byte) -n},
                    nulls ? null : n % 3 == 0,
                    nulls ? null : (byte) n,
                    nulls ? null : (short) (sign * n),
                    nulls ? null : (int) (sign * n * 7919),
                    nulls ? null : n * 0.25f,
                    nulls ? null : sign * n * 1.5e10,
                    nulls ? null : Decimal.fromBigDecimal(BigDecimal.valueOf(sign * (n % 99_999), 2), 5, 2),
                    nulls ? null : Decimal.fromBigDecimal(BigDecimal.valueOf(sign * n * 1_000_003L, 4), 18, 4),
                    nulls ? null : Decimal.fromBigDecimal(
                            new BigDecimal("123456789012345678.123456").multiply(BigDecimal.valueOf(sign * (n % 1000))),
                            30,
                            6),
                    nulls ? null : (int) (sign * n),
                    nulls ? null : n % 86_400 * 1000, // TIME(0): whole seconds, as Arrow keeps them
                    nulls ? null : TimestampNtz.fromMillis(sign * n * 86_400_123L),
                    nulls ? null : TimestampNtz.fromMillis(sign * n * 3_600_001L, subMillisNanos),
                    nulls ? null : TimestampLtz.fromEpochMillis(1_700_000_000_000L + sign * n),
                    nulls ? null : TimestampLtz.fromEpochMillis(sign * n * 60_000L, subMillisNanos),
                    // Null in every other run of 500 records (whole pages of nulls), else a few repeated values.
                    n / 500 % 2 == 0 ? null : BinaryString.fromString("v" + n % 7));
            records.add(new GenericRecord(n, 1_700_000_000_000L + n, ChangeType.APPEND_ONLY, row));
        }
        return records;
    }

    private static int bucketOf(LogRecord record) {
        return (int) (record.logOffset() % 2);
    }

    /** {@code options} and Paimon's per-column option that the columnar write applies to {@code __offset} itself. */
    private static Map<String, String> offsetWithoutDictionary(Map<String, String> options) {
        Map<String, String> rowOptions = new HashMap<>(options);
        rowOptions.put("parquet.enable.dictionary#__offset", "false");
        return rowOptions;
    }

    private static void commitMessages(FileStoreTable table, List<CommitMessage> messages) throws Exception {
        try (BatchTableCommit commit = table.newBatchWriteBuilder().newCommit()) {
            commit.commit(messages);
        }
    }

    private static void commit(FileStoreTable table, LakeWriter writer, List<LogRecord> records) throws Exception {
        List<CommitMessage> messages;
        try (writer) {
            for (LogRecord record : records) {
                writer.write(new TableBucket(1, bucketOf(record)), record);
            }
            messages = writer.complete();
        }
        commitMessages(table, messages);
    }

    /**
     * Writes the records as the columnar reader hands them out: per chunk of {@link #ARROW_CHUNK} records, one
     * Arrow batch per bucket, built and decoded as Fluss does, each record an {@link ArrowBatchRecord} over its
     * batch's vectors. The records keep their order (the buckets' batches interleave) and their offsets.
     */
    private static void commitThroughArrowBatches(FileStoreTable table, List<LogRecord> records) throws Exception {
        List<CommitMessage> messages;
        try (InMemoryArrowBatches even = new InMemoryArrowBatches(flussRowType());
                InMemoryArrowBatches odd = new InMemoryArrowBatches(flussRowType());
                ParquetAppendWriter writer = new ParquetAppendWriter(table)) {
            for (int from = 0; from < records.size(); from += ARROW_CHUNK) {
                List<LogRecord> chunk = records.subList(from, Math.min(records.size(), from + ARROW_CHUNK));
                List<ArrowBatchRecord> views = new ArrayList<>();
                for (int bucket = 0; bucket < 2; bucket++) {
                    int inBucket = bucket;
                    List<LogRecord> bucketRecords = chunk.stream().filter(r -> bucketOf(r) == inBucket).toList();
                    InMemoryArrowBatches batches = bucket == 0 ? even : odd;
                    byte[] batch = batches.encode(0, bucketRecords.stream().map(LogRecord::getRow).toList());
                    batches.replay(batch, new TableBucket(1, bucket), (b, record) -> {
                        ArrowBatchRecord view = (ArrowBatchRecord) record;
                        // The views are reused: keep this one's place, with the record's own offset and time.
                        LogRecord original = bucketRecords.get(view.rowId());
                        ArrowBatchRecord kept = new ArrowBatchRecord();
                        kept.moveTo(view.vectors(), view.batchId(), new GenericRecord(
                                original.logOffset(), original.timestamp(), ChangeType.APPEND_ONLY, view.getRow()),
                                view.rowId());
                        views.add(kept);
                    });
                }
                views.sort(Comparator.comparingLong(ArrowBatchRecord::logOffset));
                for (ArrowBatchRecord view : views) {
                    writer.write(new TableBucket(1, bucketOf(view)), view);
                }
            }
            messages = writer.complete();
        }
        commitMessages(table, messages);
    }

    /**
     * A log batch handed to the writer as one range of rows ({@link ParquetAppendWriter#writeAppends}) must give
     * the files its records give one by one: the same Arrow batches (of a length that makes file rolls and row
     * groups fall inside batches) through both, rows, file metadata and Parquet layout compared.
     */
    @ParameterizedTest(name = "buckets {0}, target file size {1}, page size {2}, row group size {3}")
    @CsvSource({"2, 128mb, 1048576, 128mb", "-1, 1kb, 1048576, 128mb", "2, 128mb, 1024, 32kb"})
    void aBatchWrittenAsOneRangeGivesTheFilesOfItsRecords(
            int buckets, String targetFileSize, int pageSize, String rowGroupSize) throws Exception {
        Map<String, String> options = Map.of(
                "target-file-size", targetFileSize,
                "parquet.page.size", String.valueOf(pageSize),
                "file.block-size", rowGroupSize);
        FileStoreTable byRecord = table("by_record", buckets, options);
        FileStoreTable byRange = table("by_range", buckets, options);
        for (int round = 0; round < 2; round++) {
            List<LogRecord> records = records(round * RECORDS_PER_ROUND, RECORDS_PER_ROUND);
            commitArrowBatches(byRecord, records, false);
            commitArrowBatches(byRange, records, true);
        }

        assertThat(read(byRange)).hasSize(2 * RECORDS_PER_ROUND).containsExactlyElementsOf(read(byRecord));
        assertThat(files(byRange)).isEqualTo(files(byRecord));
        assertThat(layout(byRange)).isEqualTo(layout(byRecord));
    }

    /**
     * Writes the records bucket by bucket in Arrow batches of about {@link #RANGE_CHUNK} / 2 rows, each batch
     * replayed as the columnar reader hands out a log table's batch: to the writer itself as one range when
     * {@code asRanges}, record by record otherwise.
     */
    private static void commitArrowBatches(FileStoreTable table, List<LogRecord> records, boolean asRanges)
            throws Exception {
        List<CommitMessage> messages;
        long[] nextOffset = new long[2];
        try (InMemoryArrowBatches arrow = new InMemoryArrowBatches(flussRowType());
                ParquetAppendWriter writer = new ParquetAppendWriter(table)) {
            RecordSink sink = asRanges ? writer : writer::write;
            for (int from = 0; from < records.size(); from += RANGE_CHUNK) {
                List<LogRecord> chunk = records.subList(from, Math.min(records.size(), from + RANGE_CHUNK));
                for (int bucket = 0; bucket < 2; bucket++) {
                    int inBucket = bucket;
                    List<org.apache.fluss.row.InternalRow> rows = chunk.stream()
                            .filter(r -> bucketOf(r) == inBucket)
                            .map(LogRecord::getRow)
                            .toList();
                    arrow.replay(arrow.encode(nextOffset[bucket], rows), new TableBucket(1, bucket), sink);
                    nextOffset[bucket] += rows.size();
                }
            }
            messages = writer.complete();
        }
        commitMessages(table, messages);
    }

    /**
     * Many files open at once in one writer (eight buckets, their batches interleaved), small pages and row groups,
     * strings repeating across batches and a dictionary that overflows mid-chunk (dictionary pages, then plain
     * ones): every page buffer and compressed page goes through the writer's shared pool and compressor while the
     * other files hold theirs. The files must read back as the same records written through Paimon's row writer.
     */
    @Test
    void manyOpenFilesWithDictionariesOverflowingMidChunkReadBackAsPaimonsFiles() throws Exception {
        int buckets = 8;
        Map<String, String> options = Map.of(
                "parquet.page.size", "1024",
                "parquet.dictionary.page.size", "2048",
                "file.block-size", "16kb");
        Map<String, String> rowOptions = offsetWithoutDictionary(options);
        Schema.Builder schema = withSystemColumns(Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("grows", DataTypes.STRING())
                .column("few", DataTypes.STRING())
                .column("unique", DataTypes.STRING()));
        FileStoreTable rows = create("stress_rows", schema, buckets, rowOptions);
        FileStoreTable columns = create("stress_columns", schema, buckets, options);
        RowType flussType = RowType.of(
                org.apache.fluss.types.DataTypes.BIGINT(), org.apache.fluss.types.DataTypes.STRING(),
                org.apache.fluss.types.DataTypes.STRING(), org.apache.fluss.types.DataTypes.STRING());
        int batchRows = 37;
        long[] nextOffset = new long[buckets];
        for (int round = 0; round < 2; round++) {
            List<List<GenericRow>> byBucket = new ArrayList<>();
            for (int bucket = 0; bucket < buckets; bucket++) {
                byBucket.add(new ArrayList<>());
            }
            for (int n = round * 20_000; n < (round + 1) * 20_000; n++) {
                // A bucket's "grows" values come four times each, so its dictionary pays off, then overflows.
                byBucket.get(n % buckets).add(GenericRow.of(
                        (long) n,
                        BinaryString.fromString("grows-" + n / (4 * buckets)),
                        BinaryString.fromString("few-" + n % 13),
                        BinaryString.fromString("unique-" + n + "-" + "x".repeat(n % 17))));
            }
            List<CommitMessage> rowMessages;
            List<CommitMessage> columnMessages;
            try (InMemoryArrowBatches arrow = new InMemoryArrowBatches(flussType);
                    LakeTableWriter rowWriter = new LakeTableWriter(rows, false, dir.resolve("io"));
                    ParquetAppendWriter columnWriter = new ParquetAppendWriter(columns)) {
                for (int from = 0; from < byBucket.get(0).size(); from += batchRows) {
                    for (int bucket = 0; bucket < buckets; bucket++) {
                        List<GenericRow> bucketRows = byBucket.get(bucket);
                        List<GenericRow> batch = bucketRows.subList(from, Math.min(from + batchRows, bucketRows.size()));
                        byte[] encoded = arrow.encode(nextOffset[bucket], batch);
                        TableBucket tableBucket = new TableBucket(1, bucket);
                        arrow.replay(encoded, tableBucket, columnWriter);
                        arrow.replay(encoded, tableBucket, rowWriter::write);
                        nextOffset[bucket] += batch.size();
                    }
                }
                rowMessages = rowWriter.complete();
                columnMessages = columnWriter.complete();
            }
            commitMessages(rows, rowMessages);
            commitMessages(columns, columnMessages);
        }

        assertThat(read(columns)).hasSize(40_000).containsExactlyElementsOf(read(rows));
        List<List<String>> layout = layout(columns);
        assertThat(layout).isEqualTo(layout(rows));
        assertThat(layout.toString()).as("chunks of dictionary pages, then plain ones")
                .contains("grows [PLAIN, RLE, BIT_PACKED, PLAIN_DICTIONARY] dictionary true");
    }

    /**
     * Columns whose values are all different in a file's first sampled rows (a BIGINT id, an INT, a DOUBLE, a string
     * with nulls, and strings all of one hash) are written without dictionary from the start; parquet-mr's dictionary, tried and found
     * bigger at the first page, gives the very same files. Columns with repeats (a few strings, a number mod 7) keep
     * their dictionary, and so does a file whose first range is shorter than the sample's minimum, or any column of
     * a table that sets the dictionary option itself.
     */
    @ParameterizedTest(name = "page size {0}, batch rows {1}, table dictionary option {2}")
    @CsvSource({
        "1048576, 1000, , id unique_int unique_double unique_string colliding",
        "1024, 700, , id unique_int unique_double unique_string colliding",
        "1048576, 100, , ", // a first range below the sample's minimum
        "1048576, 1000, true, " // the table's own dictionary option
    })
    void columnsAllDifferentInTheSampleAreWrittenPlainAsParquetsFallbackWritesThem(
            int pageSize, int batchRows, String dictionaryOption, String expectedPlain) throws Exception {
        Map<String, String> options = new HashMap<>(Map.of("parquet.page.size", String.valueOf(pageSize)));
        if (dictionaryOption != null) {
            options.put("parquet.enable.dictionary", dictionaryOption);
        }
        Map<String, String> rowOptions = offsetWithoutDictionary(options);
        Schema.Builder schema = withSystemColumns(Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("unique_int", DataTypes.INT())
                .column("unique_double", DataTypes.DOUBLE())
                .column("unique_string", DataTypes.STRING())
                .column("colliding", DataTypes.STRING())
                .column("few", DataTypes.STRING())
                .column("repeating_long", DataTypes.BIGINT()));
        FileStoreTable rows = create("sampled_rows", schema, 2, rowOptions);
        FileStoreTable columns = create("sampled_columns", schema, 2, options);
        RowType flussType = RowType.of(
                org.apache.fluss.types.DataTypes.BIGINT(), org.apache.fluss.types.DataTypes.INT(),
                org.apache.fluss.types.DataTypes.DOUBLE(), org.apache.fluss.types.DataTypes.STRING(),
                org.apache.fluss.types.DataTypes.STRING(), org.apache.fluss.types.DataTypes.STRING(),
                org.apache.fluss.types.DataTypes.BIGINT());
        List<CommitMessage> rowMessages;
        List<CommitMessage> columnMessages;
        try (InMemoryArrowBatches arrow = new InMemoryArrowBatches(flussType);
                LakeTableWriter rowWriter = new LakeTableWriter(rows, false, dir.resolve("io"));
                ParquetAppendWriter columnWriter = new ParquetAppendWriter(columns)) {
            Set<String> chosenPlain = new TreeSet<>();
            AppendRangeSink sampling = new AppendRangeSink() {
                @Override
                public void writeAppends(TableBucket bucket, ArrowAppendRange range) throws Exception {
                    if (range.firstRow() == 0 && range.offsetOf(0) == 0) {
                        chosenPlain.addAll(columnWriter.sampledUniqueColumns(range, 0));
                    }
                    columnWriter.writeAppends(bucket, range);
                }

                @Override
                public void write(TableBucket bucket, LogRecord record) throws Exception {
                    columnWriter.write(bucket, record);
                }
            };
            for (int bucket = 0; bucket < 2; bucket++) {
                for (int from = 0; from < 3000; from += batchRows) {
                    List<GenericRow> batch = new ArrayList<>();
                    for (int n = from; n < Math.min(3000, from + batchRows); n++) {
                        boolean nulls = n % 11 == 3;
                        batch.add(GenericRow.of(
                                (long) n * 2 + bucket,
                                nulls ? null : n * 7919,
                                nulls ? null : n * 0.5,
                                nulls ? null : BinaryString.fromString("unique-" + bucket + "-" + n),
                                BinaryString.fromString(sameHash(n)),
                                BinaryString.fromString("few-" + n % 3),
                                (long) (n % 7)));
                    }
                    byte[] encoded = arrow.encode(from, batch);
                    TableBucket tableBucket = new TableBucket(1, bucket);
                    arrow.replay(encoded, tableBucket, sampling);
                    arrow.replay(encoded, tableBucket, rowWriter::write);
                }
            }
            assertThat(chosenPlain).as("the columns a file's first range shows all different")
                    .isEqualTo(expectedPlain == null ? Set.of() : new TreeSet<>(List.of(expectedPlain.split(" "))));
            rowMessages = rowWriter.complete();
            columnMessages = columnWriter.complete();
        }
        List<List<String>> layout = commitAndCompare(rows, rowMessages, columns, columnMessages, 6000);
        if (expectedPlain != null) {
            String chunks = layout.toString();
            for (String unique : expectedPlain.split(" ")) {
                assertThat(chunks).as(unique).contains("; " + unique + " [PLAIN, RLE, BIT_PACKED] dictionary false");
            }
            assertThat(chunks).as("repeating columns keep their dictionary")
                    .contains("; few [RLE, BIT_PACKED, PLAIN_DICTIONARY] dictionary true")
                    .contains("; repeating_long [RLE, BIT_PACKED, PLAIN_DICTIONARY] dictionary true");
        }
    }

    /**
     * Every type the writer reads straight from Arrow vectors, with scattered nulls, a column null in whole runs
     * and one NOT NULL, in batches written as ranges (so column by column between parquet-mr's page-size checks),
     * small pages and row groups: the files must be those of Paimon's row writer, page by page. A null in the NOT
     * NULL column fails naming it.
     */
    @ParameterizedTest(name = "page size {0}, row group size {1}, batch rows {2}")
    @CsvSource({"1024, 16kb, 37", "1048576, 128mb, 1000", "4096, 64kb, 333"})
    void rangesOfVectorReadColumnsGiveTheFilesOfPaimonsRowWriter(int pageSize, String rowGroupSize, int batchRows)
            throws Exception {
        Map<String, String> options = Map.of(
                "parquet.page.size", String.valueOf(pageSize), "file.block-size", rowGroupSize);
        Schema.Builder schema = withSystemColumns(Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("s", DataTypes.STRING())
                .column("b", DataTypes.BYTES())
                .column("flag", DataTypes.BOOLEAN())
                .column("t", DataTypes.TINYINT())
                .column("sm", DataTypes.SMALLINT())
                .column("i", DataTypes.INT().notNull())
                .column("f", DataTypes.FLOAT())
                .column("d", DataTypes.DOUBLE())
                .column("day", DataTypes.DATE())
                .column("sparse", DataTypes.STRING()));
        FileStoreTable rows = create("vector_rows", schema, 2, offsetWithoutDictionary(options));
        FileStoreTable columns = create("vector_columns", schema, 2, options);
        RowType flussType = RowType.of(
                org.apache.fluss.types.DataTypes.BIGINT(), org.apache.fluss.types.DataTypes.STRING(),
                org.apache.fluss.types.DataTypes.BYTES(), org.apache.fluss.types.DataTypes.BOOLEAN(),
                org.apache.fluss.types.DataTypes.TINYINT(), org.apache.fluss.types.DataTypes.SMALLINT(),
                org.apache.fluss.types.DataTypes.INT(), org.apache.fluss.types.DataTypes.FLOAT(),
                org.apache.fluss.types.DataTypes.DOUBLE(), org.apache.fluss.types.DataTypes.DATE(),
                org.apache.fluss.types.DataTypes.STRING());
        List<CommitMessage> rowMessages;
        List<CommitMessage> columnMessages;
        try (InMemoryArrowBatches arrow = new InMemoryArrowBatches(flussType);
                LakeTableWriter rowWriter = new LakeTableWriter(rows, false, dir.resolve("io"));
                ParquetAppendWriter columnWriter = new ParquetAppendWriter(columns)) {
            for (int bucket = 0; bucket < 2; bucket++) {
                for (int from = 0; from < 6000; from += batchRows) {
                    List<GenericRow> batch = new ArrayList<>();
                    for (int n = from; n < Math.min(6000, from + batchRows); n++) {
                        boolean nulls = n % 9 == 4;
                        batch.add(GenericRow.of(
                                (long) n * 2 + bucket,
                                nulls ? null : BinaryString.fromString("s-" + n % 97 + "-ü€".repeat(n % 3)),
                                nulls ? null : ("b-" + n % 31).getBytes(),
                                nulls ? null : n % 3 == 0,
                                nulls ? null : (byte) n,
                                nulls ? null : (short) (n % 500 - 250),
                                n % 61 - 30,
                                nulls ? null : n % 40 * 0.25f,
                                nulls ? null : n % 45 * -1.5,
                                nulls ? null : n % 200 - 100,
                                n / 700 % 2 == 0 ? null : BinaryString.fromString("v" + n % 7)));
                    }
                    byte[] encoded = arrow.encode(from, batch);
                    TableBucket tableBucket = new TableBucket(1, bucket);
                    arrow.replay(encoded, tableBucket, columnWriter);
                    arrow.replay(encoded, tableBucket, rowWriter::write);
                }
            }
            rowMessages = rowWriter.complete();
            columnMessages = columnWriter.complete();

            byte[] nullInNotNull = arrow.encode(6000, List.of(GenericRow.of(
                    1L, null, null, null, null, null, null, null, null, null, null)));
            assertThatThrownBy(() -> arrow.replay(nullInNotNull, new TableBucket(1, 0), columnWriter))
                    .hasMessageContaining("Column 'i' of the lake table is NOT NULL");
        }
        commitAndCompare(rows, rowMessages, columns, columnMessages, 12_000);
    }

    /**
     * Commits the row writer's and the columnar writer's files, each into its table, and asserts that the columnar
     * table holds the same {@code expectedRows} rows, file metadata and Parquet layout; returns that layout.
     */
    private static List<List<String>> commitAndCompare(
            FileStoreTable rows,
            List<CommitMessage> rowMessages,
            FileStoreTable columns,
            List<CommitMessage> columnMessages,
            int expectedRows)
            throws Exception {
        commitMessages(rows, rowMessages);
        commitMessages(columns, columnMessages);
        assertThat(read(columns)).hasSize(expectedRows).containsExactlyElementsOf(read(rows));
        assertThat(files(columns)).isEqualTo(files(rows));
        List<List<String>> layout = layout(columns);
        assertThat(layout).isEqualTo(layout(rows));
        return layout;
    }

    /** A string per {@code n < 4096}, all of the same 31-based hash: "Aa" and "BB" hash alike, so all their joins do. */
    private static String sameHash(int n) {
        StringBuilder value = new StringBuilder();
        for (int bit = 0; bit < 12; bit++) {
            value.append((n >> bit & 1) == 0 ? "Aa" : "BB");
        }
        return value.toString();
    }

    /** The Fluss columns the records hold, as Fluss's tiering maps them to {@link #TYPES}. */
    private static RowType flussRowType() {
        return RowType.of(
                org.apache.fluss.types.DataTypes.BIGINT(), org.apache.fluss.types.DataTypes.STRING(),
                org.apache.fluss.types.DataTypes.CHAR(5), org.apache.fluss.types.DataTypes.BYTES(),
                org.apache.fluss.types.DataTypes.BINARY(4), org.apache.fluss.types.DataTypes.BOOLEAN(),
                org.apache.fluss.types.DataTypes.TINYINT(), org.apache.fluss.types.DataTypes.SMALLINT(),
                org.apache.fluss.types.DataTypes.INT(), org.apache.fluss.types.DataTypes.FLOAT(),
                org.apache.fluss.types.DataTypes.DOUBLE(), org.apache.fluss.types.DataTypes.DECIMAL(5, 2),
                org.apache.fluss.types.DataTypes.DECIMAL(18, 4), org.apache.fluss.types.DataTypes.DECIMAL(30, 6),
                org.apache.fluss.types.DataTypes.DATE(), org.apache.fluss.types.DataTypes.TIME(),
                org.apache.fluss.types.DataTypes.TIMESTAMP(3), org.apache.fluss.types.DataTypes.TIMESTAMP(6),
                org.apache.fluss.types.DataTypes.TIMESTAMP_LTZ(3), org.apache.fluss.types.DataTypes.TIMESTAMP_LTZ(6),
                org.apache.fluss.types.DataTypes.STRING());
    }

    private static List<List<Object>> read(FileStoreTable table) throws Exception {
        ReadBuilder builder = table.newReadBuilder();
        List<InternalRow.FieldGetter> getters = new ArrayList<>();
        for (int i = 0; i < table.rowType().getFieldCount(); i++) {
            getters.add(InternalRow.createFieldGetter(table.rowType().getTypeAt(i), i));
        }
        List<List<Object>> rows = new ArrayList<>();
        try (RecordReader<InternalRow> reader = builder.newRead().createReader(builder.newScan().plan().splits())) {
            reader.forEachRemaining(row -> {
                List<Object> values = new ArrayList<>();
                for (InternalRow.FieldGetter getter : getters) {
                    Object value = getter.getFieldOrNull(row);
                    values.add(render(value));
                }
                rows.add(values);
            });
        }
        rows.sort(Comparator.comparing(r -> Long.parseLong((String) r.get(0))));
        return rows;
    }

    /** Every data file's metadata but its name, size and creation time, in bucket and sequence order. */
    private static List<List<Object>> files(FileStoreTable table) {
        List<List<Object>> files = new ArrayList<>();
        for (ManifestEntry entry : table.store().newScan().plan().files()) {
            DataFileMeta file = entry.file();
            files.add(List.of(
                    entry.partition(), entry.bucket(), entry.totalBuckets(), file.rowCount(),
                    file.minSequenceNumber(), file.maxSequenceNumber(), file.schemaId(), file.level(),
                    String.valueOf(file.fileSource()), stats(table, file), String.valueOf(file.valueStatsCols()),
                    file.extraFiles(), String.valueOf(file.externalPath())));
        }
        files.sort(Comparator.comparing((List<Object> f) -> (Integer) f.get(1)).thenComparing(f -> (Long) f.get(4)));
        return files;
    }

    /** The file's statistics, readable: per column its min, max and null count. */
    private static List<String> stats(FileStoreTable table, DataFileMeta file) {
        SimpleStats stats = file.valueStats();
        List<String> columns = new ArrayList<>();
        for (int i = 0; i < table.rowType().getFieldCount(); i++) {
            InternalRow.FieldGetter getter = InternalRow.createFieldGetter(table.rowType().getTypeAt(i), i);
            columns.add(table.rowType().getFieldNames().get(i) + "[" + render(getter.getFieldOrNull(stats.minValues()))
                    + ", " + render(getter.getFieldOrNull(stats.maxValues())) + ", "
                    + (stats.nullCounts().isNullAt(i) ? null : stats.nullCounts().getLong(i)) + "]");
        }
        return columns;
    }

    private static String render(Object value) {
        return value instanceof byte[] bytes ? Arrays.toString(bytes) : String.valueOf(value);
    }

    private static Path dataFile(FileStoreTable table, ManifestEntry entry) {
        return Path.of(table.store().pathFactory()
                .createDataFilePathFactory(entry.partition(), entry.bucket())
                .toPath(entry.file())
                .toUri());
    }

    private static ParquetFileReader footer(FileStoreTable table, ManifestEntry entry) throws Exception {
        org.apache.paimon.fs.Path path = table.store().pathFactory()
                .createDataFilePathFactory(entry.partition(), entry.bucket())
                .toPath(entry.file());
        return ParquetUtil.getParquetReader(table.fileIO(), path, entry.file().fileSize());
    }

    /**
     * Per data file (in bucket and sequence order), per row group: its row count and, per column chunk, its
     * encodings, whether it has a dictionary page, its value count, sizes and number of pages.
     */
    private static List<List<String>> layout(FileStoreTable table) throws Exception {
        List<ManifestEntry> entries = new ArrayList<>(table.store().newScan().plan().files());
        entries.sort(Comparator.comparingInt(ManifestEntry::bucket)
                .thenComparingLong(e -> e.file().minSequenceNumber()));
        List<List<String>> files = new ArrayList<>();
        for (ManifestEntry entry : entries) {
            List<String> groups = new ArrayList<>();
            try (ParquetFileReader reader = footer(table, entry)) {
                for (BlockMetaData block : reader.getFooter().getBlocks()) {
                    StringBuilder group = new StringBuilder("rows " + block.getRowCount());
                    for (ColumnChunkMetaData chunk : block.getColumns()) {
                        group.append("; ").append(chunk.getPath().toDotString())
                                .append(' ').append(new TreeSet<>(chunk.getEncodings()))
                                .append(" dictionary ").append(chunk.hasDictionaryPage())
                                .append(" values ").append(chunk.getValueCount())
                                .append(" bytes ").append(chunk.getTotalUncompressedSize())
                                .append('/').append(chunk.getTotalSize());
                    }
                    groups.add(group.toString());
                }
                for (int g = 0; g < reader.getRowGroups().size(); g++) {
                    groups.add("pages " + pageCounts(reader, g));
                }
            }
            files.add(groups);
        }
        return files;
    }

    /** Per column of the row group, its number of data pages (from the offset index). */
    private static List<Integer> pageCounts(ParquetFileReader reader, int rowGroup) throws Exception {
        List<Integer> pages = new ArrayList<>();
        for (ColumnChunkMetaData chunk : reader.getRowGroups().get(rowGroup).getColumns()) {
            pages.add(reader.readOffsetIndex(chunk).getPageCount());
        }
        return pages;
    }

    private static List<Path> dataFiles(FileStoreTable table) throws Exception {
        try (Stream<Path> files = Files.walk(Path.of(table.location().toUri()))) {
            return files.filter(f -> f.getFileName().toString().startsWith("data-")).toList();
        }
    }
}
