package io.lakesync.tiering.columnar.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

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
}
