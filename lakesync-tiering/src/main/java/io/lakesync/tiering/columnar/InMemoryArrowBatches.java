package io.lakesync.tiering.columnar;

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
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.arrow.ArrowWriter;
import org.apache.fluss.row.arrow.ArrowWriterPool;
import org.apache.fluss.shaded.arrow.org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.shaded.arrow.org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.shaded.netty4.io.netty.buffer.ByteBuf;
import org.apache.fluss.types.RowType;
import org.apache.fluss.utils.CloseableIterator;

/**
 * Arrow log batches built in memory, as a Fluss writer builds them (uncompressed), and handed out again record by
 * record as the columnar reader hands out fetched ones: as {@link ArrowBatchRecord}s over the decoded vectors.
 * For measuring and testing the columnar write without a cluster (the benchmark's encoding floor). The records
 * of one decoded batch are valid until the next batch is decoded. Not thread-safe.
 */
public final class InMemoryArrowBatches implements AutoCloseable {

    static final int SCHEMA_ID = 1;
    private static final int MAX_BATCH_BYTES = 16 << 20;

    private final RowType rowType;
    private final BufferAllocator allocator = new RootAllocator(Long.MAX_VALUE);
    private final ArrowWriterPool writers = new ArrowWriterPool(allocator);
    private final LogRecordReadContext readContext;
    private final ArrowBatchRecord view = new ArrowBatchRecord();

    public InMemoryArrowBatches(RowType rowType) {
        this.rowType = rowType;
        this.readContext = LogRecordReadContext.createArrowReadContext(
                rowType, SCHEMA_ID, new FixedSchema(Schema.newBuilder().fromRowType(rowType).build()));
    }

    /** One Arrow log batch of the rows, its records at offsets from {@code baseOffset}. */
    public byte[] encode(long baseOffset, List<? extends InternalRow> rows) throws Exception {
        ArrowWriter writer = writers.getOrCreateWriter(
                0L, SCHEMA_ID, MAX_BATCH_BYTES, rowType, ArrowCompressionInfo.NO_COMPRESSION);
        try (MemoryLogRecordsArrowBuilder builder = MemoryLogRecordsArrowBuilder.builder(
                baseOffset, LogRecordBatch.CURRENT_LOG_MAGIC_VALUE, SCHEMA_ID, writer,
                new UnmanagedPagedOutputView(1 << 16))) {
            for (InternalRow row : rows) {
                builder.append(ChangeType.APPEND_ONLY, row);
            }
            ByteBuf buf = builder.build().getByteBuf();
            byte[] batch = new byte[buf.readableBytes()];
            buf.getBytes(buf.readerIndex(), batch);
            builder.recycleArrowWriter();
            return batch;
        }
    }

    /** Decodes a batch of {@link #encode} and hands each of its records to the sink, as Fluss bucket {@code bucket}. */
    public void replay(byte[] batch, TableBucket bucket, RecordSink sink) throws Exception {
        long batchId = ArrowBatchRecord.nextBatchId();
        for (LogRecordBatch decoded : MemoryLogRecords.pointToBytes(batch).batches()) {
            try (CloseableIterator<LogRecord> records = decoded.records(readContext)) {
                int rowId = 0;
                while (records.hasNext()) {
                    view.moveTo(readContext.getVectorSchemaRoot(SCHEMA_ID), batchId, records.next(), rowId++);
                    sink.write(bucket, view);
                }
            }
        }
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
