package io.lakesync.tiering.columnar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.fluss.compression.ArrowCompressionInfo;
import org.apache.fluss.memory.UnmanagedPagedOutputView;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.LogRecordBatch;
import org.apache.fluss.record.LogRecordReadContext;
import org.apache.fluss.record.MemoryLogRecords;
import org.apache.fluss.record.MemoryLogRecordsArrowBuilder;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
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
 * batches holding offsets 0–9, 10–19 and 20–29, row {@code i} holding {@code (i, "v" + i)}.
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
    private final BatchConsumer consumer = new BatchConsumer(ROW_TYPE, true, true);
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
