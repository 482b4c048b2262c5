package io.lakesync.tiering.lake;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.GenericRecord;
import org.apache.fluss.row.BinaryString;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.parquet.ParquetUtil;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.shade.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.paimon.shade.org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.paimon.shade.org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A primary-key table in Fluss's lake layout, written by {@link LakeTableWriter} on disk: the unique columns of
 * its data and changelog files carry no Parquet dictionary, its other columns keep theirs, a dictionary option
 * the table sets itself wins, and the table reads back the merged changelog.
 */
class UniqueColumnEncodingTest {

    private static final String[] UNIQUE = {"_KEY_id", "id", "_SEQUENCE_NUMBER", "__offset"};

    @TempDir
    Path warehouse;

    private LakeTables lakeTables;

    @BeforeEach
    void open() throws Exception {
        lakeTables = new LakeTables(Map.of("warehouse", warehouse.toString()));
        lakeTables.catalog().createDatabase("lake", true);
    }

    @AfterEach
    void close() throws Exception {
        lakeTables.close();
    }

    @Test
    void uniqueColumnsAreWrittenWithoutDictionaryAndReadBackMerged() throws Exception {
        FileStoreTable table = create("accounts", Map.of());
        Map<Long, String> expected = writeChangelog(table);

        Map<String, Boolean> dictionaries = dictionaryUse(table);
        assertThat(files(table)).anyMatch(f -> f.getFileName().toString().startsWith("changelog-"));
        for (String column : UNIQUE) {
            assertThat(dictionaries).containsEntry(column, false);
        }
        assertThat(dictionaries).containsEntry("__bucket", true).containsEntry("__timestamp", true);
        assertThat(readMerged(table)).isEqualTo(expected);
    }

    @Test
    void aDictionaryOptionOfTheTableWins() throws Exception {
        FileStoreTable allColumns = create("dictionary_everywhere", Map.of("parquet.enable.dictionary", "true"));
        assertThat(UniqueColumnEncoding.writeOptions(allColumns)).isEmpty();

        FileStoreTable oneColumn = create("dictionary_on_id", Map.of("parquet.enable.dictionary#id", "true"));
        writeChangelog(oneColumn);
        Map<String, Boolean> dictionaries = dictionaryUse(oneColumn);
        assertThat(dictionaries).containsEntry("id", true).containsEntry("_SEQUENCE_NUMBER", false);
    }

    @Test
    void logTablesAndOtherFormatsAreLeftAlone() throws Exception {
        lakeTables.catalog().createTable(
                Identifier.create("lake", "events"),
                Schema.newBuilder().column("id", DataTypes.BIGINT()).option("bucket", "-1").build(),
                false);
        assertThat(UniqueColumnEncoding.writeOptions(lakeTables.load(TablePath.of("lake", "events")))).isEmpty();
        assertThat(UniqueColumnEncoding.writeOptions(create("orc_accounts", Map.of("file.format", "orc"))))
                .isEmpty();
    }

    private FileStoreTable create(String name, Map<String, String> options) throws Exception {
        Schema.Builder schema = Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("status", DataTypes.STRING())
                .column("__bucket", DataTypes.INT())
                .column("__offset", DataTypes.BIGINT())
                .column("__timestamp", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                .primaryKey("id")
                .option("bucket", "2")
                .option("bucket-key", "id")
                .option("changelog-producer", "input")
                .option("file.format", "parquet");
        options.forEach(schema::option);
        lakeTables.catalog().createTable(Identifier.create("lake", name), schema.build(), false);
        return lakeTables.load(TablePath.of("lake", name));
    }

    /** Inserts 1,000 keys, updates every 3rd, deletes every 5th, through the writer; commits; the live keys. */
    private Map<Long, String> writeChangelog(FileStoreTable table) throws Exception {
        Map<Long, String> expected = new TreeMap<>();
        Map<Integer, Long> offsets = new HashMap<>();
        List<org.apache.paimon.table.sink.CommitMessage> messages;
        try (LakeTableWriter writer = new LakeTableWriter(table, false, warehouse.resolve("tmp"))) {
            for (long id = 0; id < 1_000; id++) {
                write(writer, offsets, id, ChangeType.INSERT, "new-" + id, expected);
            }
            for (long id = 0; id < 1_000; id += 3) {
                write(writer, offsets, id, ChangeType.UPDATE_BEFORE, "new-" + id, expected);
                write(writer, offsets, id, ChangeType.UPDATE_AFTER, "paid-" + id, expected);
            }
            for (long id = 0; id < 1_000; id += 5) {
                write(writer, offsets, id, ChangeType.DELETE, expected.get(id), expected);
            }
            messages = writer.complete();
        }
        try (BatchTableCommit commit = table.newBatchWriteBuilder().newCommit()) {
            commit.commit(messages);
        }
        return expected;
    }

    private static void write(
            LakeTableWriter writer,
            Map<Integer, Long> offsets,
            long id,
            ChangeType change,
            String status,
            Map<Long, String> expected)
            throws Exception {
        int bucket = (int) (id % 2);
        long offset = offsets.merge(bucket, 1L, Long::sum) - 1;
        org.apache.fluss.row.GenericRow row =
                org.apache.fluss.row.GenericRow.of(id, BinaryString.fromString(status));
        writer.write(new TableBucket(1, bucket), new GenericRecord(offset, 1_700_000_000_000L, change, row));
        if (change == ChangeType.DELETE) {
            expected.remove(id);
        } else if (change != ChangeType.UPDATE_BEFORE) {
            expected.put(id, status);
        }
    }

    /**
     * Per column: whether any data or changelog file encodes it with a dictionary (Parquet itself falls back to
     * plain encoding where a dictionary does not pay off, so a column may differ between files).
     */
    private static Map<String, Boolean> dictionaryUse(FileStoreTable table) throws Exception {
        Map<String, Boolean> use = new HashMap<>();
        List<Path> files = files(table);
        assertThat(files).isNotEmpty();
        for (Path file : files) {
            org.apache.paimon.fs.Path path = new org.apache.paimon.fs.Path(file.toString());
            long length = Files.size(file);
            try (ParquetFileReader reader = ParquetUtil.getParquetReader(LocalFileIO.create(), path, length)) {
                for (BlockMetaData block : reader.getFooter().getBlocks()) {
                    for (ColumnChunkMetaData chunk : block.getColumns()) {
                        boolean dictionary = chunk.getEncodings().stream().anyMatch(e -> e.usesDictionary());
                        use.merge(chunk.getPath().toDotString(), dictionary, Boolean::logicalOr);
                    }
                }
            }
        }
        return use;
    }

    private static List<Path> files(FileStoreTable table) throws Exception {
        try (Stream<Path> walk = Files.walk(Path.of(table.location().toUri().getPath()))) {
            return walk.filter(p -> p.getParent().getFileName().toString().startsWith("bucket-"))
                    .filter(p -> p.getFileName().toString().endsWith(".parquet"))
                    .toList();
        }
    }

    private static Map<Long, String> readMerged(FileStoreTable table) throws Exception {
        Map<Long, String> rows = new TreeMap<>();
        ReadBuilder builder = table.newReadBuilder();
        try (RecordReader<InternalRow> reader = builder.newRead().createReader(builder.newScan().plan())) {
            reader.forEachRemaining(row -> rows.put(row.getLong(0), row.getString(1).toString()));
        }
        return rows;
    }
}
