package io.lakesync.tiering.columnar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.fluss.compression.ArrowCompressionInfo;
import org.apache.fluss.memory.UnmanagedPagedOutputView;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.SchemaGetter;
import org.apache.fluss.metadata.SchemaInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.record.LogRecordBatch;
import org.apache.fluss.record.LogRecordReadContext;
import org.apache.fluss.record.MemoryLogRecords;
import org.apache.fluss.record.MemoryLogRecordsArrowBuilder;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.row.arrow.ArrowWriter;
import org.apache.fluss.row.arrow.ArrowWriterPool;
import org.apache.fluss.shaded.arrow.org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.shaded.arrow.org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.shaded.netty4.io.netty.buffer.ByteBuf;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The columnar reader's offset handling on real Arrow batches, built as a Fluss writer builds them: three
 * batches holding offsets 0–9, 10–19 and 20–29, row {@code i} holding {@code (i, "v" + i)}; handed record by
 * record, or to an {@link AppendRangeSink} as ranges of rows.
 */
class BatchConsumerTest {

    private static final int SCHEMA_ID = InMemoryArrowBatches.SCHEMA_ID;
    private static final Schema SCHEMA =
            Schema.newBuilder().column("id", DataTypes.BIGINT()).column("name", DataTypes.STRING()).build();
    private static final RowType ROW_TYPE = SCHEMA.getRowType();
    private static final TableBucket BUCKET = new TableBucket(7L, 0);

    private BufferAllocator allocator;
    private ArrowWriterPool writers;
    private LogRecordReadContext readContext;
    private final BatchConsumer consumer = new BatchConsumer(ROW_TYPE, SCHEMA_ID, true, true);
    private final List<Long> written = new ArrayList<>();
    private final RecordSink sink = (bucket, record) -> {
        assertThat(bucket).isEqualTo(BUCKET);
        assertThat(record.getRow().getLong(0)).isEqualTo(record.logOffset());
        assertThat(record.getRow().getString(1).toString()).isEqualTo("v" + record.logOffset());
        written.add(record.logOffset());
    };

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator(Long.MAX_VALUE);
        writers = new ArrowWriterPool(allocator);
        readContext = LogRecordReadContext.createArrowReadContext(
                ROW_TYPE, SCHEMA_ID, new InMemoryArrowBatches.FixedSchema(SCHEMA));
    }

    @AfterEach
    void tearDown() {
        readContext.close();
        writers.close();
        allocator.close();
    }

    @Test
    void handsOutExactlyTheRangeAcrossBatchBoundaries() throws Exception {
        LogPosition position = new LogPosition(BUCKET, 5, 25);

        long count = consumer.consume(position, batches(0, 10, 20), readContext, sink);

        assertThat(written).containsExactlyElementsOf(range(5, 25));
        assertThat(count).isEqualTo(20);
        assertThat(position.state()).isEqualTo(LogPosition.State.DONE);
        assertThat(position.fetchOffset()).isEqualTo(25);
    }

    @Test
    void skipsBatchesBeforeTheFetchOffsetAndStopsAtABatchBoundary() throws Exception {
        LogPosition position = new LogPosition(BUCKET, 10, 20);

        consumer.consume(position, batches(0, 10, 20), readContext, sink);

        assertThat(written).containsExactlyElementsOf(range(10, 20));
        assertThat(position.state()).isEqualTo(LogPosition.State.DONE);
    }

    @Test
    void keepsReadingWhenTheBatchesEndBeforeTheEndOffset() throws Exception {
        LogPosition position = new LogPosition(BUCKET, 0, 100);

        consumer.consume(position, batches(0, 10), readContext, sink);
        // A later fetch repeats the last batch (it started before the position): nothing is handed out twice.
        consumer.consume(position, batches(10, 20), readContext, sink);

        assertThat(written).containsExactlyElementsOf(range(0, 30));
        assertThat(position.state()).isEqualTo(LogPosition.State.READING);
        assertThat(position.fetchOffset()).isEqualTo(30);
    }

    @Test
    void aBatchFailingItsChecksumHandsTheBucketBackWhereItStopped() throws Exception {
        byte[] bytes = bytes(0, 10, 20);
        int secondBatch = bytes(0).length;
        bytes[secondBatch + bytes(10).length - 1] ^= 0x5a; // a payload byte of the second batch
        LogPosition position = new LogPosition(BUCKET, 3, 30);

        consumer.consume(position, MemoryLogRecords.pointToBytes(bytes).batches(), readContext, sink);

        assertThat(written).containsExactlyElementsOf(range(3, 10));
        assertThat(position.state()).isEqualTo(LogPosition.State.HANDED_BACK);
        assertThat(position.fetchOffset()).isEqualTo(10);
        assertThat(position.handBackReason()).contains("offset 10").contains("checksum");
    }

    @Test
    void aFailingSinkFailsTheReadWithoutMovingPastTheRecord() throws Exception {
        LogPosition position = new LogPosition(BUCKET, 0, 30);
        RecordSink failing = (bucket, record) -> {
            if (record.logOffset() == 12) {
                throw new IllegalStateException("lake rejects offset 12");
            }
            sink.write(bucket, record);
        };

        assertThatThrownBy(() -> consumer.consume(position, batches(0, 10, 20), readContext, failing))
                .hasMessage("lake rejects offset 12");
        assertThat(written).containsExactlyElementsOf(range(0, 12));
        assertThat(position.fetchOffset()).isEqualTo(12);
        assertThat(position.state()).isEqualTo(LogPosition.State.READING);
    }

    @Test
    void aPositionStartingAtItsEndIsDoneAtOnce() throws Exception {
        LogPosition position = new LogPosition(BUCKET, 30, 30);

        consumer.consume(position, batches(0, 10, 20), readContext, sink);

        assertThat(written).isEmpty();
        assertThat(position.state()).isEqualTo(LogPosition.State.DONE);
    }

    @Test
    void aLogTablesBatchesReachARangeSinkAsTheirRowsInsideThePosition() throws Exception {
        RangeRecorder ranges = new RangeRecorder();
        LogPosition position = new LogPosition(BUCKET, 5, 25);

        long count = consumer.consume(position, batches(0, 10, 20), readContext, ranges);

        assertThat(ranges.ranges).containsExactly(List.of(5L, 10L), List.of(10L, 20L), List.of(20L, 25L));
        assertThat(ranges.records).isEmpty();
        assertThat(written).containsExactlyElementsOf(range(5, 25));
        assertThat(count).isEqualTo(20);
        assertThat(position.state()).isEqualTo(LogPosition.State.DONE);
        assertThat(position.fetchOffset()).isEqualTo(25);
    }

    @Test
    void aRangeEndsBeforeTheFirstRowThatCannotBeDecodedWhichGoesToTheRowPath() throws Exception {
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("ts", DataTypes.TIMESTAMP(6))
                .build();
        RowType rowType = schema.getRowType();
        BatchConsumer timestamps = new BatchConsumer(rowType, SCHEMA_ID, true, true);
        List<GenericRow> rows = new ArrayList<>();
        for (long offset = 0; offset < 10; offset++) {
            // Fluss 0.9.1 cannot decode a TIMESTAMP(6) before 1970 with sub-millisecond digits from Arrow.
            LocalDateTime time = offset == 6
                    ? LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000)
                    : LocalDateTime.of(2024, 1, 1, 12, 0).plusSeconds(offset);
            rows.add(GenericRow.of(offset, TimestampNtz.fromLocalDateTime(time)));
        }
        RangeRecorder ranges = new RangeRecorder();
        LogPosition position = new LogPosition(BUCKET, 2, 30);
        try (InMemoryArrowBatches arrow = new InMemoryArrowBatches(rowType);
                LogRecordReadContext context = LogRecordReadContext.createArrowReadContext(
                        rowType, SCHEMA_ID, new InMemoryArrowBatches.FixedSchema(schema))) {
            byte[] batch = arrow.encode(0, rows);

            long count = timestamps.consume(position, MemoryLogRecords.pointToBytes(batch).batches(), context, ranges);

            assertThat(count).isEqualTo(4);
        }
        assertThat(ranges.ranges).containsExactly(List.of(2L, 6L));
        assertThat(position.state()).isEqualTo(LogPosition.State.HANDED_BACK);
        assertThat(position.fetchOffset()).as("the row path goes on at the undecodable row").isEqualTo(6);
        assertThat(position.handBackReason()).contains("offset 6").contains("cannot be decoded");
    }

    @Test
    void aBatchInAnOlderSchemaGoesRecordByRecordProjectedToTheCurrentOne() throws Exception {
        // The table after ALTER TABLE ADD COLUMN: schema 2 adds a nullable column to schema 1, the batches' schema.
        Schema current = Schema.newBuilder().fromSchema(SCHEMA).column("added", DataTypes.INT()).build();
        SchemaGetter schemas = new SchemaGetter() {
            @Override
            public Schema getSchema(int schemaId) {
                return schemaId == SCHEMA_ID ? SCHEMA : current;
            }

            @Override
            public CompletableFuture<SchemaInfo> getSchemaInfoAsync(int schemaId) {
                return CompletableFuture.completedFuture(new SchemaInfo(getSchema(schemaId), schemaId));
            }

            @Override
            public SchemaInfo getLatestSchemaInfo() {
                return new SchemaInfo(current, SCHEMA_ID + 1);
            }

            @Override
            public void release() {}
        };
        RangeRecorder ranges = new RangeRecorder();
        LogPosition position = new LogPosition(BUCKET, 5, 25);
        try (LogRecordReadContext context =
                LogRecordReadContext.createArrowReadContext(current.getRowType(), SCHEMA_ID + 1, schemas)) {
            new BatchConsumer(current.getRowType(), SCHEMA_ID + 1, true, true).consume(position, batches(0, 10, 20), context, ranges);
        }

        assertThat(ranges.ranges).isEmpty();
        assertThat(ranges.records).containsExactlyElementsOf(range(5, 25));
        assertThat(ranges.added).containsOnly(true);
        assertThat(position.state()).isEqualTo(LogPosition.State.DONE);
    }

    @Test
    void aBatchInANewerSchemaThanTheRoundsHandsTheBucketBackBeforeAnyOfItsRecords() throws Exception {
        // The round reads in schema 0 (its table info came before an ALTER); the batches carry schema 1.
        Schema older = Schema.newBuilder().column("id", DataTypes.BIGINT()).build();
        RangeRecorder ranges = new RangeRecorder();
        LogPosition position = new LogPosition(BUCKET, 5, 25);
        try (LogRecordReadContext context = LogRecordReadContext.createArrowReadContext(
                older.getRowType(), SCHEMA_ID - 1, new InMemoryArrowBatches.FixedSchema(older))) {
            new BatchConsumer(older.getRowType(), SCHEMA_ID - 1, true, true)
                    .consume(position, batches(0, 10, 20), context, ranges);
        }

        assertThat(ranges.ranges).isEmpty();
        assertThat(ranges.records).isEmpty();
        assertThat(position.state()).isEqualTo(LogPosition.State.HANDED_BACK);
        assertThat(position.handBackReason()).contains("offset 0").contains("schema " + SCHEMA_ID + ", newer");
        assertThat(position.fetchOffset()).as("the row path starts where the round's range starts").isEqualTo(5);
    }

    /**
     * Takes ranges and records as the columnar writer does, checking every row's values against its offset (into
     * {@link #written}); keeps each range's offsets and each single record's offset apart.
     */
    private final class RangeRecorder implements AppendRangeSink {
        final List<List<Long>> ranges = new ArrayList<>();
        final List<Long> records = new ArrayList<>();
        /** Per single record, whether it holds a column beyond the batch's schema, null. */
        final List<Boolean> added = new ArrayList<>();

        @Override
        public void write(TableBucket bucket, LogRecord record) throws Exception {
            assertThat(record).isNotInstanceOf(ArrowBatchRecord.class);
            assertThat(record.getChangeType()).isEqualTo(ChangeType.APPEND_ONLY);
            records.add(record.logOffset());
            added.add(record.getRow().getFieldCount() == 3 && record.getRow().isNullAt(2));
            sink.write(bucket, record);
        }

        @Override
        public void writeAppends(TableBucket bucket, ArrowAppendRange range) {
            assertThat(bucket).isEqualTo(BUCKET);
            ranges.add(List.of(range.offsetOf(range.firstRow()), range.offsetOf(range.endRow())));
            for (int row = range.firstRow(); row < range.endRow(); row++) {
                long offset = range.offsetOf(row);
                InternalRow values = range.rowAt(row);
                if (range.vectors().getSchema().getFields().get(1).getName().equals("name")) {
                    assertThat(values.getString(1).toString()).isEqualTo("v" + offset);
                }
                assertThat(values.getLong(0)).isEqualTo(offset);
                written.add(offset);
            }
        }
    }

    private Iterable<LogRecordBatch> batches(long... baseOffsets) throws Exception {
        return MemoryLogRecords.pointToBytes(bytes(baseOffsets)).batches();
    }

    /** Batches of ten records each, starting at the given offsets, back to back. */
    private byte[] bytes(long... baseOffsets) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (long base : baseOffsets) {
            ArrowWriter writer =
                    writers.getOrCreateWriter(7L, SCHEMA_ID, 1 << 20, ROW_TYPE, ArrowCompressionInfo.NO_COMPRESSION);
            try (MemoryLogRecordsArrowBuilder builder = MemoryLogRecordsArrowBuilder.builder(
                    base, LogRecordBatch.CURRENT_LOG_MAGIC_VALUE, SCHEMA_ID, writer, new UnmanagedPagedOutputView(1 << 16))) {
                for (long offset = base; offset < base + 10; offset++) {
                    builder.append(ChangeType.APPEND_ONLY, GenericRow.of(offset, BinaryString.fromString("v" + offset)));
                }
                ByteBuf buf = builder.build().getByteBuf();
                byte[] batch = new byte[buf.readableBytes()];
                buf.getBytes(buf.readerIndex(), batch);
                out.write(batch);
                builder.recycleArrowWriter();
            }
        }
        return out.toByteArray();
    }

    private static List<Long> range(long from, long to) {
        List<Long> offsets = new ArrayList<>();
        for (long offset = from; offset < to; offset++) {
            offsets.add(offset);
        }
        return offsets;
    }
}
