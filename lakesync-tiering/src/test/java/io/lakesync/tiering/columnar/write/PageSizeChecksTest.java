package io.lakesync.tiering.columnar.write;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.shade.org.apache.parquet.column.ColumnWriteStore;
import org.apache.paimon.shade.org.apache.parquet.column.ParquetProperties;
import org.apache.paimon.shade.org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.paimon.shade.org.apache.parquet.hadoop.CodecFactory;
import org.apache.paimon.shade.org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.paimon.shade.org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.paimon.shade.org.apache.parquet.schema.MessageType;
import org.apache.paimon.shade.org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;

class PageSizeChecksTest {

    /** Known with the parquet-mr Paimon bundles; were it not, every range would be written a row at a time. */
    @Test
    void theStoresNextCheckIsReadFromTheStore() {
        MessageType schema = MessageTypeParser.parseMessageType("message t { required int64 id; }");
        ParquetProperties properties = ParquetProperties.builder()
                .withMinRowCountForPageSizeCheck(40)
                .withPageRowCountLimit(1000)
                .build();
        ColumnChunkPageWriteStore pages = new ColumnChunkPageWriteStore(
                new CodecFactory(new Configuration(), 1024).getCompressor(CompressionCodecName.UNCOMPRESSED),
                schema,
                new HeapByteBufferAllocator(),
                64,
                false);
        ColumnWriteStore store = properties.newColumnWriteStore(schema, pages, pages);

        assertThat(PageSizeChecks.KNOWN).isTrue();
        assertThat(PageSizeChecks.rowsBeforeNext(store, 0)).isEqualTo(40);
        for (int row = 0; row < 10; row++) {
            store.getColumnWriter(schema.getColumns().get(0)).write((long) row, 0, 0);
            store.endRecord();
        }
        assertThat(PageSizeChecks.rowsBeforeNext(store, 10)).isEqualTo(30);
        for (int row = 10; row < 40; row++) {
            store.getColumnWriter(schema.getColumns().get(0)).write((long) row, 0, 0);
            store.endRecord();
        }
        // The check at row 40 set the next one further on.
        assertThat(PageSizeChecks.rowsBeforeNext(store, 40)).isGreaterThan(1);
    }
}
