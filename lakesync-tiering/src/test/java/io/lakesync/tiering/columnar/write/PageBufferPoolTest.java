package io.lakesync.tiering.columnar.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.shade.org.apache.parquet.column.ColumnDescriptor;
import org.apache.paimon.shade.org.apache.parquet.column.values.ValuesWriter;
import org.apache.paimon.shade.org.apache.parquet.io.api.Binary;
import org.apache.paimon.shade.org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.paimon.shade.org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The page buffer pool's bookkeeping; that parquet-mr writes the same files with it is
 * {@link ParquetAppendWriterTest}'s (files of many pages and row groups compared with Paimon's writer).
 */
class PageBufferPoolTest {

    @Test
    void aReleasedBufferIsHandedOutAgainAsASliceOfExactlyTheSizeAskedFor() {
        PageBufferPool pool = new PageBufferPool(1 << 20);
        ByteBuffer first = pool.allocate(5000);
        assertThat(first.capacity()).isEqualTo(5000);
        assertThat(first.position()).isZero();
        assertThat(first.remaining()).isEqualTo(5000);
        first.put((byte) 7);
        pool.release(first);
        assertThat(pool.pooledBytes()).isEqualTo(8192);
        assertThat(pool.lentBuffers()).isZero();

        ByteBuffer second = pool.allocate(6000);
        assertThat(second.array()).as("the same memory, reused").isSameAs(first.array());
        assertThat(second.capacity()).isEqualTo(6000);
        assertThat(second.remaining()).isEqualTo(6000);
        assertThat(pool.pooledBytes()).isZero();
        assertThat(pool.allocate(6000).array()).as("a buffer in use is not handed out twice").isNotSameAs(second.array());
    }

    @Test
    void buffersReleasedTwiceOrNotFromThePoolAreIgnored() {
        PageBufferPool pool = new PageBufferPool(1 << 20);
        ByteBuffer buffer = pool.allocate(100);
        pool.release(buffer);
        pool.release(buffer);
        pool.release(ByteBuffer.allocate(100));
        assertThat(pool.pooledBytes()).isEqualTo(4096);
        assertThat(pool.allocate(100).array()).isSameAs(buffer.array());
        assertThat(pool.allocate(100).array()).isNotSameAs(buffer.array());
    }

    @Test
    void keepsNoMoreThanItsLimitAndNoLargeBuffers() {
        PageBufferPool pool = new PageBufferPool(8192);
        ByteBuffer a = pool.allocate(4096);
        ByteBuffer b = pool.allocate(4096);
        ByteBuffer c = pool.allocate(4096);
        pool.release(a);
        pool.release(b);
        pool.release(c);
        assertThat(pool.pooledBytes()).isEqualTo(8192);

        ByteBuffer large = pool.allocate(1 << 20);
        assertThat(large.capacity()).isEqualTo(1 << 20);
        pool.release(large);
        assertThat(pool.pooledBytes()).isEqualTo(8192);
        assertThat(pool.lentBuffers()).isZero();
    }

    /**
     * A writer's value encoders take their buffers from its own pool, not from the pool of the writer whose
     * settings were built last: parquet-mr's default values-writer factory is one static object that every
     * settings build rebinds, so writers on other threads would share one (not thread-safe) pool.
     */
    @ParameterizedTest(name = "writer version {0}")
    @ValueSource(strings = {"v1", "v2"})
    void eachWritersValueEncodersTakeBuffersFromItsOwnPool(String writerVersion) {
        CoreOptions options = CoreOptions.fromMap(Map.of("parquet.writer.version", writerVersion));
        PageBufferPool own = new PageBufferPool(1 << 20);
        PageBufferPool other = new PageBufferPool(1 << 20);
        ParquetSettings settings = ParquetSettings.of(options).withAllocator(own);
        ParquetSettings.of(options).withAllocator(other);

        ColumnDescriptor column =
                new ColumnDescriptor(new String[] {"s"}, Types.optional(PrimitiveTypeName.BINARY).named("s"), 0, 1);
        ValuesWriter values = settings.properties().newValuesWriter(column);
        values.writeBytes(Binary.fromString("value"));
        values.getBytes();

        assertThat(other.lentBuffers()).as("buffers lent by the other writer's pool").isZero();
        assertThat(own.lentBuffers()).isPositive();
        values.close();
        assertThat(own.lentBuffers()).isZero();
    }
}
