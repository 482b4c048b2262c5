package io.lakesync.tiering.columnar;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.fluss.compression.ArrowCompressionInfo;
import org.apache.fluss.memory.UnmanagedPagedOutputView;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.SchemaGetter;
import org.apache.fluss.metadata.SchemaInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.DefaultLogRecordBatch;
import org.apache.fluss.record.LogRecordBatch;
import org.apache.fluss.record.LogRecordReadContext;
import org.apache.fluss.record.MemoryLogRecords;
import org.apache.fluss.record.MemoryLogRecordsArrowBuilder;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.arrow.ArrowWriter;
import org.apache.fluss.row.arrow.ArrowWriterPool;
import org.apache.fluss.shaded.arrow.org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.shaded.arrow.org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.shaded.netty4.io.netty.buffer.ByteBuf;
import org.apache.fluss.types.RowType;

/**
 * Arrow log batches built in memory, as a Fluss client builds them (uncompressed; a log table's append-only, a
 * primary-key table's with a change type per record), and handed out again as the columnar reader hands out
 * fetched ones ({@link BatchConsumer}): as {@link ArrowBatchRecord}s over the decoded vectors, or, for a log
 * table, as {@link ArrowAppendRange}s to an {@link AppendRangeSink}.
 * For running the columnar write without a cluster (the benchmark's encoding floor, tests, the write path's
 * warm-up). The records of one decoded batch are valid until the next batch is decoded. Not thread-safe.
 */
public final class InMemoryArrowBatches implements AutoCloseable {

    static final int SCHEMA_ID = 1;
    private static final int MAX_BATCH_BYTES = 16 << 20;

    private final RowType rowType;
    private final BufferAllocator allocator = new RootAllocator(Long.MAX_VALUE);
    private final ArrowWriterPool writers = new ArrowWriterPool(allocator);
    private final LogRecordReadContext readContext;
    private final boolean appendsOnly;
    private final BatchConsumer consumer;

    /** Batches of a log table. */
    public InMemoryArrowBatches(RowType rowType) {
        this(rowType, true);
    }

    /** {@code appendsOnly}: batches of a log table (else of a primary-key table, with change types). */
    public InMemoryArrowBatches(RowType rowType, boolean appendsOnly) {
        this.rowType = rowType;
        this.appendsOnly = appendsOnly;
        this.readContext = LogRecordReadContext.createArrowReadContext(
                rowType, SCHEMA_ID, new FixedSchema(Schema.newBuilder().fromRowType(rowType).build()));
        this.consumer = new BatchConsumer(rowType, SCHEMA_ID, false, appendsOnly);
    }

    /** Whether these are a log table's batches (else a primary-key table's, with change types). */
    public boolean appendsOnly() {
        return appendsOnly;
    }

    /** One Arrow log batch of a log table's rows, its records at offsets from {@code baseOffset}. */
    public byte[] encode(long baseOffset, List<? extends InternalRow> rows) throws Exception {
        return encode(baseOffset, rows, Collections.nCopies(rows.size(), ChangeType.APPEND_ONLY));
    }

    /**
     * One Arrow log batch of the rows, row {@code i} with change type {@code changeTypes[i]}
     * ({@link ChangeType#APPEND_ONLY} for all of a log table's), its records at offsets from {@code baseOffset}.
     */
    public byte[] encode(long baseOffset, List<? extends InternalRow> rows, List<ChangeType> changeTypes)
            throws Exception {
        ArrowWriter writer = writers.getOrCreateWriter(
                0L, SCHEMA_ID, MAX_BATCH_BYTES, rowType, ArrowCompressionInfo.NO_COMPRESSION);
        // A log table's batches are append-only, without a change-type vector, as a Fluss client builds them.
        try (MemoryLogRecordsArrowBuilder builder = MemoryLogRecordsArrowBuilder.builder(
                SCHEMA_ID, writer, new UnmanagedPagedOutputView(1 << 16), appendsOnly)) {
            for (int i = 0; i < rows.size(); i++) {
                builder.append(changeTypes.get(i), rows.get(i));
            }
            ByteBuf buf = builder.build().getByteBuf();
            byte[] batch = new byte[buf.readableBytes()];
            buf.getBytes(buf.readerIndex(), batch);
            builder.recycleArrowWriter();
            // The tablet server assigns the offsets of a client's batch in place (outside the checksum), so here.
            for (LogRecordBatch built : MemoryLogRecords.pointToBytes(batch).batches()) {
                ((DefaultLogRecordBatch) built).setBaseLogOffset(baseOffset);
            }
            return batch;
        }
    }

    /**
     * Decodes a batch of {@link #encode} and hands its records to the sink, as Fluss bucket {@code bucket}, as the
     * columnar reader hands out a fetched batch (a log table's as ranges of rows to an {@link AppendRangeSink}).
     */
    public void replay(byte[] batch, TableBucket bucket, RecordSink sink) throws Exception {
        LogPosition wholeBatch = new LogPosition(bucket, 0, Long.MAX_VALUE);
        consumer.consume(wholeBatch, MemoryLogRecords.pointToBytes(batch).batches(), readContext, sink);
    }

    @Override
    public void close() {
        try {
            readContext.close();
            writers.close();
        } finally {
            allocator.close();
        }
    }

    /** The one schema the batches are written in, as schema {@link #SCHEMA_ID}. */
    record FixedSchema(Schema schema) implements SchemaGetter {
        @Override
        public Schema getSchema(int schemaId) {
            return schema;
        }

        @Override
        public CompletableFuture<SchemaInfo> getSchemaInfoAsync(int schemaId) {
            return CompletableFuture.completedFuture(getLatestSchemaInfo());
        }

        @Override
        public SchemaInfo getLatestSchemaInfo() {
            return new SchemaInfo(schema, SCHEMA_ID);
        }

        @Override
        public void release() {}
    }
}
