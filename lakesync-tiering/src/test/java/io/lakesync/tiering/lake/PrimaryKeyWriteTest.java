package io.lakesync.tiering.lake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.tiering.columnar.write.ParquetKeyValueWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.memory.MemorySegment;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.GenericRecord;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.ProjectedRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.row.compacted.CompactedRow;
import org.apache.fluss.row.decode.CompactedRowDecoder;
import org.apache.fluss.row.encode.CompactedRowEncoder;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.format.parquet.ParquetUtil;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.shade.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.paimon.shade.org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.paimon.shade.org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.StreamTableScan;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A primary-key changelog written by {@link LakeTableWriter} (records as {@link RecordRowView}s, the key a
 * projection of them) and the same changelog written by Paimon's own table writer from copied rows, into two
 * tables on disk: Paimon's reader must return the same merged rows and the same lake changelog (+I/-U/+U/-D).
 * The table is partitioned by a string, its primary key holds a string and spans the partition column (so the
 * key Paimon sorts by is a projection that skips a column), and the strings lie where the view takes its
 * three ways: slices of one shared heap array (no copy), across two memory segments and off the heap (copied),
 * plus nulls, empty and multi-byte strings.
 */
class PrimaryKeyWriteTest {

    private static final int BUCKETS = 2;
    private static final String[] REGIONS = {"eu", "us-west"};
    private static final long TIMESTAMP = 1_700_000_000_000L;

    @TempDir
    Path warehouse;

    @Test
    void viewsAndPaimonsOwnWriterLeaveTheSameRowsAndChangelog() throws Exception {
        try (LakeTables lakeTables = new LakeTables(Map.of("warehouse", warehouse.toString()))) {
            lakeTables.catalog().createDatabase("lake", true);
            FileStoreTable viaViews = create(lakeTables, "accounts_views", Map.of());
            FileStoreTable viaPaimon = create(lakeTables, "accounts_paimon", Map.of());
            List<Change> changes = changelog(60);
            commit(viaViews, writeWithLakeTableWriter(viaViews, changes));
            commit(viaPaimon, writeWithPaimon(viaPaimon, changes));
            assertSameContent(viaViews, viaPaimon, changes.size());
        }
    }

    @Test
    void columnarFilesMatchPaimonsOwnWriterOverTwoRounds() throws Exception {
        try (LakeTables lakeTables = new LakeTables(Map.of("warehouse", warehouse.toString()))) {
            lakeTables.catalog().createDatabase("lake", true);
            FileStoreTable columnar = create(lakeTables, "accounts_columnar", Map.of());
            FileStoreTable viaPaimon = create(lakeTables, "accounts_paimon", Map.of());
            assertThat(ParquetKeyValueWriter.unsupportedReason(columnar)).isNull();
            List<Change> changes = changelog(60);
            // Round 1: the inserts and the first updates; round 2 continues every bucket's sequence numbers.
            List<Change> first = changes.stream().filter(c -> c.offset < 70).toList();
            List<Change> second = changes.stream().filter(c -> c.offset >= 70).toList();
            for (List<Change> round : List.of(first, second)) {
                List<CommitMessage> columnarFiles = writeColumnar(columnar, round);
                List<CommitMessage> paimonFiles = writeWithPaimon(viaPaimon, round);
                assertSameFileMetadata(columnarFiles, paimonFiles);
                commit(columnar, columnarFiles);
                commit(viaPaimon, paimonFiles);
            }
            assertThat(columnar.snapshotManager().latestSnapshotId()).isEqualTo(2L);
            assertSameContent(columnar, viaPaimon, changes.size());
        }
    }

    @Test
    void columnarWriterFlushesSortedRunsWhenItsBufferIsFull() throws Exception {
        try (LakeTables lakeTables = new LakeTables(Map.of("warehouse", warehouse.toString()))) {
            lakeTables.catalog().createDatabase("lake", true);
            FileStoreTable columnar = create(lakeTables, "small_buffer_columnar", Map.of("write-buffer-size", "1 mb"));
            FileStoreTable viaPaimon = create(lakeTables, "small_buffer_paimon", Map.of());
            List<Change> changes = changelog(2_000);
            List<CommitMessage> columnarFiles = writeColumnar(columnar, changes);
            // The buffer fills while the first partition's records arrive: its buckets flush more than one run.
            assertThat(columnarFiles).allSatisfy(message -> {
                DataIncrement increment = ((CommitMessageImpl) message).newFilesIncrement();
                assertThat(increment.changelogFiles()).hasSameSizeAs(increment.newFiles());
            });
            assertThat(columnarFiles).anySatisfy(message ->
                    assertThat(((CommitMessageImpl) message).newFilesIncrement().newFiles()).hasSizeGreaterThan(1));
            commit(columnar, columnarFiles);
            commit(viaPaimon, writeWithPaimon(viaPaimon, changes));
            assertSameContent(columnar, viaPaimon, changes.size());
        }
    }

    /**
     * A sorted run whose first values of a business column all differ writes that column without dictionary, as
     * parquet-mr itself would end up writing it (its dictionary does not pay off, so it falls back to plain at the
     * first page), without hashing each value first; a column whose values repeat keeps the dictionary.
     */
    @Test
    void sortedRunsLeaveTheDictionaryOutOfColumnsWhoseValuesAllDiffer() throws Exception {
        try (LakeTables lakeTables = new LakeTables(Map.of("warehouse", warehouse.toString()))) {
            lakeTables.catalog().createDatabase("lake", true);
            FileStoreTable table = create(lakeTables, "distinct_names", Map.of());
            List<Change> changes = new ArrayList<>();
            for (int i = 0; i < 600; i++) {
                changes.add(new Change(0, 0, i, ChangeType.INSERT, i, "name-" + i));
                changes.add(new Change(0, 1, i, ChangeType.INSERT, 100_000L + i, "name-" + i % 3));
            }
            commit(table, writeColumnar(table, changes));

            Map<Integer, Boolean> nameDictionaryByBucket = new HashMap<>();
            for (ManifestEntry entry : table.store().newScan().plan().files()) {
                org.apache.paimon.fs.Path path = table.store().pathFactory()
                        .createDataFilePathFactory(entry.partition(), entry.bucket())
                        .toPath(entry.file());
                try (ParquetFileReader reader =
                        ParquetUtil.getParquetReader(table.fileIO(), path, entry.file().fileSize())) {
                    for (BlockMetaData block : reader.getFooter().getBlocks()) {
                        for (ColumnChunkMetaData chunk : block.getColumns()) {
                            if (chunk.getPath().toDotString().equals("name")) {
                                nameDictionaryByBucket.put(entry.bucket(), chunk.hasDictionaryPage());
                            }
                        }
                    }
                }
            }
            assertThat(nameDictionaryByBucket).as("bucket 0: every name differs; bucket 1: three names")
                    .containsExactlyInAnyOrderEntriesOf(Map.of(0, false, 1, true));
            assertThat(read(table, false)).hasSize(1_200);
        }
    }

    /**
     * KV-snapshot rows as Fluss's snapshot scanner hands them out (a {@link CompactedRow} over its own value
     * array, after the schema id; a row of an older schema projected onto the current one) of every column type
     * the columnar write covers, with nulls in every nullable column, empty strings and bytes, a string longer
     * than a buffer page, multi-byte strings and each type's extremes: the same files' metadata, merged rows
     * and changelog as Paimon's own writer.
     */
    @Test
    void kvSnapshotRowsOfEveryColumnTypeMatchPaimonsOwnWriter() throws Exception {
        try (LakeTables lakeTables = new LakeTables(Map.of("warehouse", warehouse.toString()))) {
            lakeTables.catalog().createDatabase("lake", true);
            FileStoreTable columnar = createEveryType(lakeTables, "every_type_columnar");
            FileStoreTable viaPaimon = createEveryType(lakeTables, "every_type_paimon");
            assertThat(ParquetKeyValueWriter.unsupportedReason(columnar)).isNull();
            List<BucketRecord> snapshot = new ArrayList<>();
            for (int region = 0; region < REGIONS.length; region++) {
                for (int bucket = 0; bucket < BUCKETS; bucket++) {
                    for (int i = 0; i < 300; i++) {
                        snapshot.add(EveryType.snapshotRecord(region, bucket, i));
                    }
                }
            }
            List<CommitMessage> columnarFiles = writeColumnar(columnar, snapshot);
            List<CommitMessage> paimonFiles = writeWithPaimon(viaPaimon, snapshot);
            assertSameFileMetadata(columnarFiles, paimonFiles);
            commit(columnar, columnarFiles);
            commit(viaPaimon, paimonFiles);

            List<List<Object>> merged = read(columnar, false);
            assertThat(merged).hasSize(snapshot.size()).containsExactlyElementsOf(read(viaPaimon, false));
            int text = columnar.rowType().getFieldIndex("text") + 1;
            assertThat(merged).anySatisfy(row -> assertThat(row.subList(3, text + 1)).containsOnlyNulls());
            assertThat(merged).anySatisfy(row -> assertThat((String) row.get(text)).hasSize(EveryType.LONG_STRING));
            assertThat(merged).anySatisfy(row -> assertThat(row.get(text)).isEqualTo(""));
            assertThat(merged).anySatisfy(row -> assertThat(row.get(text)).isEqualTo(Long.MAX_VALUE + " ü€"));
            assertThat(read(columnar, true)).hasSize(snapshot.size()).containsExactlyElementsOf(read(viaPaimon, true));
        }
    }

    @Test
    void columnarWriterDeletesFlushedFilesNotHandedOverAndRejectsBadRecords() throws Exception {
        try (LakeTables lakeTables = new LakeTables(Map.of("warehouse", warehouse.toString()))) {
            lakeTables.catalog().createDatabase("lake", true);
            FileStoreTable table = create(lakeTables, "abandoned", Map.of("write-buffer-size", "1 mb"));
            java.nio.file.Path tableDir = java.nio.file.Path.of(table.location().toUri().getPath());
            try (ParquetKeyValueWriter writer = new ParquetKeyValueWriter(table)) {
                for (Change change : changelog(2_000)) {
                    writer.write(new TableBucket(1, (long) change.region, change.bucket), change.flussRecord());
                }
                assertThat(parquetFiles(tableDir)).as("sorted runs flushed while writing").isNotEmpty();
            }
            assertThat(parquetFiles(tableDir)).as("files of a writer closed before complete()").isEmpty();

            TableBucket bucket = new TableBucket(1, 0L, 0);
            try (ParquetKeyValueWriter writer = new ParquetKeyValueWriter(table)) {
                writer.write(bucket, changelog(1).get(0).flussRecord());
                GenericRecord wider = new GenericRecord(0, TIMESTAMP, ChangeType.INSERT, org.apache.fluss.row.GenericRow.of(
                        1L, BinaryString.fromString("c1"), BinaryString.fromString("eu"), null, 5));
                assertThatThrownBy(() -> writer.write(bucket, wider))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("abandoned")
                        .hasMessageContaining("not yet synchronized");
                GenericRecord nullKey = new GenericRecord(1, TIMESTAMP, ChangeType.INSERT, org.apache.fluss.row.GenericRow.of(
                        null, BinaryString.fromString("c1"), BinaryString.fromString("eu"), null));
                assertThatThrownBy(() -> writer.write(bucket, nullKey))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("'id'")
                        .hasMessageContaining("NOT NULL");
                // The rejected records left nothing behind: the record before them is written alone.
                List<CommitMessage> written = writer.complete();
                assertThat(written).hasSize(1);
                assertThat(((CommitMessageImpl) written.get(0)).newFilesIncrement().newFiles())
                        .singleElement()
                        .satisfies(file -> assertThat(file.rowCount()).isEqualTo(1));
            }
        }
    }

    private static List<java.nio.file.Path> parquetFiles(java.nio.file.Path tableDir) throws Exception {
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(tableDir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".parquet")).toList();
        }
    }

    @Test
    void tablesTheColumnarWriterCannotReproduceKeepTheRowWriter() throws Exception {
        try (LakeTables lakeTables = new LakeTables(Map.of("warehouse", warehouse.toString()))) {
            lakeTables.catalog().createDatabase("lake", true);
            assertThat(ParquetKeyValueWriter.unsupportedReason(
                            create(lakeTables, "orc", Map.of("file.format", "orc"))))
                    .contains("orc");
            assertThat(ParquetKeyValueWriter.unsupportedReason(
                            create(lakeTables, "partial", Map.of("merge-engine", "partial-update"))))
                    .contains("partial-update");
            assertThat(ParquetKeyValueWriter.unsupportedReason(
                            create(lakeTables, "lookup", Map.of("changelog-producer", "lookup"))))
                    .contains("lookup");
            assertThat(ParquetKeyValueWriter.unsupportedReason(
                            create(lakeTables, "dv", Map.of("deletion-vectors.enabled", "true"))))
                    .contains("deletion vectors");
            assertThatThrownBy(() -> new ParquetKeyValueWriter(create(lakeTables, "seq", Map.of("sequence.field", "id"))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("sequence.field");
        }
    }

    /** Per Paimon bucket, the data and changelog files' metadata but their names and sizes (which differ). */
    private static void assertSameFileMetadata(List<CommitMessage> columnar, List<CommitMessage> paimon) {
        assertThat(fileMetadata(columnar)).isNotEmpty().isEqualTo(fileMetadata(paimon));
    }

    private static Map<String, List<List<Object>>> fileMetadata(List<CommitMessage> messages) {
        Map<String, List<List<Object>>> files = new HashMap<>();
        for (CommitMessage message : messages) {
            CommitMessageImpl impl = (CommitMessageImpl) message;
            assertThat(impl.compactIncrement().isEmpty()).isTrue();
            String bucket = impl.partition().getString(0) + "/" + impl.bucket();
            List<List<Object>> metas = new ArrayList<>();
            for (DataFileMeta file : impl.newFilesIncrement().newFiles()) {
                metas.add(describe("data", file));
            }
            for (DataFileMeta file : impl.newFilesIncrement().changelogFiles()) {
                metas.add(describe("changelog", file));
            }
            if (!metas.isEmpty()) {
                files.put(bucket, metas);
            }
        }
        return files;
    }

    private static List<Object> describe(String kind, DataFileMeta file) {
        return List.of(
                kind,
                file.rowCount(),
                file.minKey(),
                file.maxKey(),
                file.keyStats(),
                file.valueStats(),
                String.valueOf(file.valueStatsCols()),
                file.minSequenceNumber(),
                file.maxSequenceNumber(),
                String.valueOf(file.deleteRowCount().orElse(null)),
                file.level(),
                file.schemaId(),
                String.valueOf(file.fileSource().orElse(null)),
                file.fileName().startsWith(kind.equals("data") ? "data-" : "changelog-"));
    }

    private static void assertSameContent(FileStoreTable viaViews, FileStoreTable viaPaimon, int changes)
            throws Exception {

        List<List<Object>> merged = read(viaViews, false);
        assertThat(merged).hasSizeGreaterThan(100).containsExactlyElementsOf(read(viaPaimon, false));
        assertThat(merged).anySatisfy(row -> assertThat(row.get(4)).isNull());
        assertThat(merged).anySatisfy(row -> assertThat(row.get(4)).isEqualTo(""));
        assertThat(merged).anySatisfy(row -> assertThat((String) row.get(4)).contains("ü"));

        List<List<Object>> changelog = read(viaViews, true);
        assertThat(changelog).hasSize(changes);
        assertThat(changelog).extracting(row -> row.get(0)).contains("+I", "-U", "+U", "-D");
        assertThat(changelog).containsExactlyElementsOf(read(viaPaimon, true));
    }

    private static FileStoreTable create(LakeTables lakeTables, String name, Map<String, String> options)
            throws Exception {
        Schema.Builder builder = Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("code", DataTypes.STRING())
                .column("region", DataTypes.STRING())
                .column("name", DataTypes.STRING())
                .column("__bucket", DataTypes.INT())
                .column("__offset", DataTypes.BIGINT())
                .column("__timestamp", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                .primaryKey("region", "code", "id")
                .partitionKeys("region")
                .option("bucket", Integer.toString(BUCKETS))
                .option("changelog-producer", "input")
                .option("file.format", "parquet");
        options.forEach(builder::option);
        Schema schema = builder.build();
        lakeTables.catalog().createTable(Identifier.create("lake", name), schema, false);
        return lakeTables.load(TablePath.of("lake", name));
    }

    private static FileStoreTable createEveryType(LakeTables lakeTables, String name) throws Exception {
        Schema.Builder builder = Schema.newBuilder();
        for (int i = 0; i < EveryType.NAMES.length; i++) {
            builder.column(EveryType.NAMES[i], EveryType.PAIMON_TYPES[i]);
        }
        Schema schema = builder.column("__bucket", DataTypes.INT())
                .column("__offset", DataTypes.BIGINT())
                .column("__timestamp", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                .primaryKey("region", "id")
                .partitionKeys("region")
                .option("bucket", Integer.toString(BUCKETS))
                .option("changelog-producer", "input")
                .option("file.format", "parquet")
                .build();
        lakeTables.catalog().createTable(Identifier.create("lake", name), schema, false);
        return lakeTables.load(TablePath.of("lake", name));
    }

    /**
     * Per region and bucket: {@code keys} keys inserted, every 2nd updated (every 6th to a null name), every 5th deleted,
     * every 10th inserted again; offsets count per bucket as in a Fluss log.
     */
    private static List<Change> changelog(int keysPerBucket) {
        List<Change> changes = new ArrayList<>();
        Random random = new Random(7);
        for (int region = 0; region < REGIONS.length; region++) {
            for (int bucket = 0; bucket < BUCKETS; bucket++) {
                long[] offset = {0};
                Map<Long, String> names = new HashMap<>();
                List<Long> keys = new ArrayList<>();
                for (int i = 0; i < keysPerBucket; i++) {
                    long id = region * 1_000_000L + bucket * 100_000L + i;
                    keys.add(id);
                    String name = i % 7 == 0 ? "" : "näme-ü-" + random.nextInt(1_000);
                    names.put(id, name);
                    changes.add(new Change(region, bucket, offset[0]++, ChangeType.INSERT, id, name));
                }
                for (long id : keys) {
                    if (id % 2 == 0) {
                        String after = id % 6 == 0 ? null : "upd-" + id;
                        changes.add(new Change(region, bucket, offset[0]++, ChangeType.UPDATE_BEFORE, id, names.get(id)));
                        changes.add(new Change(region, bucket, offset[0]++, ChangeType.UPDATE_AFTER, id, after));
                        names.put(id, after);
                    }
                }
                for (long id : keys) {
                    if (id % 5 == 0) {
                        changes.add(new Change(region, bucket, offset[0]++, ChangeType.DELETE, id, names.get(id)));
                    }
                    if (id % 10 == 0) {
                        changes.add(new Change(region, bucket, offset[0]++, ChangeType.INSERT, id, "again-" + id));
                    }
                }
            }
        }
        return changes;
    }

    private List<CommitMessage> writeWithLakeTableWriter(FileStoreTable table, List<Change> changes)
            throws Exception {
        try (LakeTableWriter writer = new LakeTableWriter(table, false, warehouse.resolve("tmp"))) {
            for (Change change : changes) {
                writer.write(new TableBucket(1, (long) change.region, change.bucket), change.flussRecord());
            }
            return writer.complete();
        }
    }

    private static List<CommitMessage> writeColumnar(FileStoreTable table, List<Change> changes) throws Exception {
        return writeColumnar(table, changes.stream()
                .map(c -> new BucketRecord(c.region, c.bucket, c.flussRecord(), c.paimonRow()))
                .toList());
    }

    private static List<CommitMessage> writeColumnar(FileStoreTable table, Collection<BucketRecord> records)
            throws Exception {
        try (ParquetKeyValueWriter writer = new ParquetKeyValueWriter(table)) {
            for (BucketRecord record : records) {
                writer.write(new TableBucket(1, (long) record.region, record.bucket), record.flussRecord);
            }
            return writer.complete();
        }
    }

    private static List<CommitMessage> writeWithPaimon(FileStoreTable table, List<Change> changes)
            throws Exception {
        return writeWithPaimon(table, changes.stream()
                .map(c -> new BucketRecord(c.region, c.bucket, c.flussRecord(), c.paimonRow()))
                .toList());
    }

    private static List<CommitMessage> writeWithPaimon(FileStoreTable table, Collection<BucketRecord> records)
            throws Exception {
        BatchWriteBuilder builder = table.copy(Map.of("write-only", "true")).newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite()) {
            for (BucketRecord record : records) {
                write.write(record.paimonRow, record.bucket);
            }
            return write.prepareCommit();
        }
    }

    /** One record for both writers: as the Fluss record the tiering reads and as the row Paimon's writer takes. */
    private record BucketRecord(int region, int bucket, LogRecord flussRecord, GenericRow paimonRow) {}

    private static void commit(FileStoreTable table, List<CommitMessage> messages) throws Exception {
        try (BatchTableCommit commit = table.newBatchWriteBuilder().newCommit()) {
            commit.commit(messages);
        }
    }

    /** Every column (row kind first for the changelog), ordered by region, bucket and offset. */
    private static List<List<Object>> read(FileStoreTable table, boolean changelog) throws Exception {
        FileStoreTable source = changelog
                ? table.copy(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1"))
                : table;
        ReadBuilder builder = source.newReadBuilder();
        List<Split> splits = new ArrayList<>();
        if (changelog) {
            // The first plans of a scan from snapshot 1 may be empty: plan until past the latest snapshot.
            StreamTableScan scan = builder.newStreamScan();
            Long latest = source.snapshotManager().latestSnapshotId();
            for (int plans = 0; plans < 10; plans++) {
                splits.addAll(scan.plan().splits());
                Long next = scan.checkpoint();
                if (next == null || next > latest) {
                    break;
                }
            }
        } else {
            splits.addAll(builder.newScan().plan().splits());
        }
        List<InternalRow.FieldGetter> getters = new ArrayList<>();
        for (int i = 0; i < source.rowType().getFieldCount(); i++) {
            getters.add(InternalRow.createFieldGetter(source.rowType().getTypeAt(i), i));
        }
        List<List<Object>> rows = new ArrayList<>();
        try (RecordReader<InternalRow> reader = builder.newRead().createReader(splits)) {
            reader.forEachRemaining(row -> {
                List<Object> values = new ArrayList<>();
                values.add(row.getRowKind().shortString());
                for (InternalRow.FieldGetter getter : getters) {
                    Object value = getter.getFieldOrNull(row);
                    values.add(value instanceof org.apache.paimon.data.BinaryString
                            ? value.toString()
                            : value instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : value);
                }
                rows.add(values);
            });
        }
        // Row kind first, then the columns: by region, bucket, offset and id.
        int region = source.rowType().getFieldIndex("region") + 1;
        int bucket = source.rowType().getFieldIndex("__bucket") + 1;
        int offset = source.rowType().getFieldIndex("__offset") + 1;
        int id = source.rowType().getFieldIndex("id") + 1;
        rows.sort(Comparator.<List<Object>, String>comparing(r -> (String) r.get(region))
                .thenComparingInt(r -> (Integer) r.get(bucket))
                .thenComparingLong(r -> (Long) r.get(offset))
                .thenComparingLong(r -> (Long) r.get(id)));
        return rows;
    }

    /** The columns of every type the columnar write covers, and the KV-snapshot rows of them. */
    private static final class EveryType {
        static final String[] NAMES = {
            "id", "region", "flag", "tiny", "small", "num", "day", "clock", "big", "ratio", "score", "code", "tag",
            "blob", "small_dec", "dec", "wide_dec", "ts3", "ts6", "ltz3", "ltz6", "text"
        };
        static final org.apache.paimon.types.DataType[] PAIMON_TYPES = {
            DataTypes.BIGINT().notNull(), DataTypes.STRING().notNull(), DataTypes.BOOLEAN(), DataTypes.TINYINT(),
            DataTypes.SMALLINT(), DataTypes.INT(), DataTypes.DATE(), DataTypes.TIME(), DataTypes.BIGINT(),
            DataTypes.FLOAT(), DataTypes.DOUBLE(), DataTypes.CHAR(5), DataTypes.BINARY(4), DataTypes.BYTES(),
            DataTypes.DECIMAL(9, 2), DataTypes.DECIMAL(18, 4), DataTypes.DECIMAL(38, 10), DataTypes.TIMESTAMP(3),
            DataTypes.TIMESTAMP(6), DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3),
            DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6), DataTypes.STRING()
        };
        static final org.apache.fluss.types.DataType[] FLUSS_TYPES = {
            org.apache.fluss.types.DataTypes.BIGINT().copy(false), org.apache.fluss.types.DataTypes.STRING().copy(false), org.apache.fluss.types.DataTypes.BOOLEAN(), org.apache.fluss.types.DataTypes.TINYINT(),
            org.apache.fluss.types.DataTypes.SMALLINT(), org.apache.fluss.types.DataTypes.INT(), org.apache.fluss.types.DataTypes.DATE(), org.apache.fluss.types.DataTypes.TIME(), org.apache.fluss.types.DataTypes.BIGINT(),
            org.apache.fluss.types.DataTypes.FLOAT(), org.apache.fluss.types.DataTypes.DOUBLE(), org.apache.fluss.types.DataTypes.CHAR(5), org.apache.fluss.types.DataTypes.BINARY(4), org.apache.fluss.types.DataTypes.BYTES(),
            org.apache.fluss.types.DataTypes.DECIMAL(9, 2), org.apache.fluss.types.DataTypes.DECIMAL(18, 4), org.apache.fluss.types.DataTypes.DECIMAL(38, 10), org.apache.fluss.types.DataTypes.TIMESTAMP(3),
            org.apache.fluss.types.DataTypes.TIMESTAMP(6), org.apache.fluss.types.DataTypes.TIMESTAMP_LTZ(3), org.apache.fluss.types.DataTypes.TIMESTAMP_LTZ(6), org.apache.fluss.types.DataTypes.STRING()
        };
        /** Longer than a column buffer's page (1 MB): the value gets a page of its own. */
        static final int LONG_STRING = 1_500_000;
        private static final short SCHEMA_ID = 1;

        /**
         * Row {@code i} of a bucket's snapshot as the scanner returns it: by {@code i % 7}, ordinary values, each
         * type's maximum, its minimum, null in every nullable column, empty strings and bytes and zeros, a
         * string longer than a page or a multi-byte one, or a row of the schema before {@code text} was added.
         * In the first region the maxima and minima rows hold the extreme keys too, so their buckets' keys span
         * more than 2^32 (the other region's do not: both ways of sorting a numeric key are taken).
         */
        static BucketRecord snapshotRecord(int region, int bucket, int i) {
            int variant = i % 7;
            long id = region == 0 && variant == 1 ? Long.MAX_VALUE - i
                    : region == 0 && variant == 2 ? Long.MIN_VALUE + i
                    : region * 1_000_000L + bucket * 100_000L + i;
            Object[] values = values(REGIONS[region], id, variant);
            org.apache.fluss.row.InternalRow row;
            if (variant == 6) {
                // An older schema without the last column, projected onto the current one (its value null).
                values[values.length - 1] = null;
                int[] mapping = new int[values.length];
                for (int column = 0; column < mapping.length; column++) {
                    mapping[column] = column < mapping.length - 1 ? column : ProjectedRow.UNEXIST_MAPPING;
                }
                row = ProjectedRow.from(mapping).replaceRow(compacted(
                        Arrays.copyOf(FLUSS_TYPES, FLUSS_TYPES.length - 1), Arrays.copyOf(values, values.length - 1)));
            } else {
                row = compacted(FLUSS_TYPES, values);
            }
            Object[] paimon = new Object[values.length + 3];
            for (int column = 0; column < values.length; column++) {
                paimon[column] = toPaimon(values[column]);
            }
            // A KV-snapshot record has no offset or timestamp: -1 for both, as Fluss's ScanRecord gives them.
            paimon[values.length] = bucket;
            paimon[values.length + 1] = -1L;
            paimon[values.length + 2] = Timestamp.fromEpochMillis(-1L);
            return new BucketRecord(region, bucket, new ScanRecord(row), GenericRow.of(paimon));
        }

        private static Object[] values(String region, long id, int variant) {
            Object[] values = new Object[NAMES.length];
            values[0] = id;
            values[1] = BinaryString.fromString(region);
            switch (variant) {
                case 0, 5 -> fill(values, true, (byte) id, (short) id, (int) id, 19_000 + (int) (id % 1000),
                        (int) (id % 86_400_000), id * 31, id / 7f, id / 3d, "c" + (id % 10_000),
                        new byte[] {1, 2, 3, (byte) id}, ("b" + id).getBytes(StandardCharsets.UTF_8),
                        BigDecimal.valueOf(id, 2), BigDecimal.valueOf(-id, 4), new BigDecimal(id + ".0123456789"),
                        1_700_000_000_000L + id, 1_700_000_000_000L - id, 123_000,
                        variant == 0 ? "text " + id : id % 100_000 == 5 && id > 0 ? "x".repeat(LONG_STRING) : Long.MAX_VALUE + " ü€");
                case 1 -> fill(values, true, Byte.MAX_VALUE, Short.MAX_VALUE, Integer.MAX_VALUE, 2_932_896,
                        86_399_999, Long.MAX_VALUE, Float.MAX_VALUE, Double.MAX_VALUE, "zzzzz",
                        new byte[] {-1, -1, -1, -1}, new byte[] {-1, 127, -128},
                        new BigDecimal("9999999.99"), new BigDecimal("99999999999999.9999"),
                        new BigDecimal("9999999999999999999999999999.9999999999"), 253_402_300_799_999L,
                        253_402_300_799_999L, 999_000, "\uffff\uffff");
                case 2 -> fill(values, false, Byte.MIN_VALUE, Short.MIN_VALUE, Integer.MIN_VALUE, -719_162, 0,
                        Long.MIN_VALUE, -Float.MAX_VALUE, -Double.MAX_VALUE, "     ", new byte[] {0, 0, 0, 0},
                        new byte[] {0}, new BigDecimal("-9999999.99"), new BigDecimal("-99999999999999.9999"),
                        new BigDecimal("-9999999999999999999999999999.9999999999"), -62_135_596_800_000L,
                        -62_135_596_800_000L, 0, "\u0000");
                case 4 -> fill(values, false, (byte) 0, (short) 0, 0, 0, 0, 0L, 0f, 0d, "", new byte[4], new byte[0],
                        BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, 0L, 0L, 0, "");
                default -> {} // 3 and 6: null in every nullable column
            }
            return values;
        }

        private static void fill(Object[] values, boolean flag, byte tiny, short small, int num, int day, int clock,
                long big, float ratio, double score, String code, byte[] tag, byte[] blob, BigDecimal smallDec,
                BigDecimal dec, BigDecimal wideDec, long millis, long ltzMillis, int nanoOfMilli, String text) {
            Object[] filled = {
                flag, tiny, small, num, day, clock, big, ratio, score, BinaryString.fromString(code), tag, blob,
                Decimal.fromBigDecimal(smallDec, 9, 2), Decimal.fromBigDecimal(dec, 18, 4),
                Decimal.fromBigDecimal(wideDec, 38, 10), TimestampNtz.fromMillis(millis),
                TimestampNtz.fromMillis(millis, nanoOfMilli), TimestampLtz.fromEpochMillis(ltzMillis),
                TimestampLtz.fromEpochMillis(ltzMillis, nanoOfMilli), BinaryString.fromString(text)
            };
            System.arraycopy(filled, 0, values, 2, filled.length);
        }

        /** The row as Fluss's KV store holds it: a schema id, then the compacted row, in an array of its own. */
        private static CompactedRow compacted(org.apache.fluss.types.DataType[] types, Object[] values) {
            CompactedRowEncoder encoder = new CompactedRowEncoder(types);
            encoder.startNewRow();
            for (int i = 0; i < values.length; i++) {
                encoder.encodeField(i, values[i]);
            }
            CompactedRow encoded = encoder.finishRow();
            byte[] value = new byte[2 + encoded.getSizeInBytes()];
            MemorySegment segment = MemorySegment.wrap(value);
            segment.putShort(0, SCHEMA_ID);
            encoded.copyTo(value, 2);
            return new CompactedRowDecoder(types).decode(segment, 2, encoded.getSizeInBytes());
        }

        private static Object toPaimon(Object value) {
            if (value instanceof BinaryString string) {
                return org.apache.paimon.data.BinaryString.fromString(string.toString());
            }
            if (value instanceof Decimal decimal) {
                return org.apache.paimon.data.Decimal.fromBigDecimal(
                        decimal.toBigDecimal(), decimal.precision(), decimal.scale());
            }
            if (value instanceof TimestampNtz ntz) {
                return Timestamp.fromEpochMillis(ntz.getMillisecond(), ntz.getNanoOfMillisecond());
            }
            if (value instanceof TimestampLtz ltz) {
                return Timestamp.fromEpochMillis(ltz.getEpochMillisecond(), ltz.getNanoOfMillisecond());
            }
            return value;
        }
    }

    /** One Fluss log record of the test changelog. */
    private record Change(int region, int bucket, long offset, ChangeType type, long id, String name) {

        GenericRecord flussRecord() {
            org.apache.fluss.row.GenericRow row = org.apache.fluss.row.GenericRow.of(
                    id, sharedArraySlice("c" + id), offHeap(REGIONS[region]), name == null ? null : split(name));
            return new GenericRecord(offset, TIMESTAMP + offset, type, row);
        }

        GenericRow paimonRow() {
            RowKind kind = switch (type) {
                case INSERT -> RowKind.INSERT;
                case UPDATE_BEFORE -> RowKind.UPDATE_BEFORE;
                case UPDATE_AFTER -> RowKind.UPDATE_AFTER;
                case DELETE -> RowKind.DELETE;
                default -> throw new IllegalArgumentException(type.toString());
            };
            return GenericRow.ofKind(
                    kind,
                    id,
                    paimonString("c" + id),
                    paimonString(REGIONS[region]),
                    name == null ? null : paimonString(name),
                    bucket,
                    offset,
                    Timestamp.fromEpochMillis(TIMESTAMP + offset));
        }

        /** The string in the middle of a heap array it shares with other bytes: the view wraps, not copies. */
        private static BinaryString sharedArraySlice(String value) {
            byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
            byte[] shared = new byte[bytes.length + 16];
            System.arraycopy(bytes, 0, shared, 7, bytes.length);
            return BinaryString.fromBytes(shared, 7, bytes.length);
        }

        /** The string split over two heap segments of equal size (as Fluss expects): the view copies it. */
        private static BinaryString split(String value) {
            byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
            if (bytes.length < 2) {
                return sharedArraySlice(value);
            }
            int size = bytes.length;
            int half = size / 2;
            byte[] first = new byte[size];
            byte[] second = new byte[size];
            System.arraycopy(bytes, 0, first, size - half, half);
            System.arraycopy(bytes, half, second, 0, size - half);
            return BinaryString.fromAddress(
                    new MemorySegment[] {MemorySegment.wrap(first), MemorySegment.wrap(second)}, size - half, size);
        }

        /** The string in off-heap memory: the view copies it. */
        private static BinaryString offHeap(String value) {
            byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
            MemorySegment segment = MemorySegment.allocateOffHeapMemory(bytes.length + 4);
            segment.put(4, bytes, 0, bytes.length);
            return BinaryString.fromAddress(new MemorySegment[] {segment}, 4, bytes.length);
        }

        private static org.apache.paimon.data.BinaryString paimonString(String value) {
            return org.apache.paimon.data.BinaryString.fromString(value);
        }
    }
}
