package io.lakesync.tiering.columnar.write;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.paimon.shade.org.apache.parquet.bytes.ByteBufferAllocator;

/**
 * The heap buffers parquet-mr writes pages into, kept for reuse once it releases them: its column writers release
 * their slabs at the end of every page and allocate fresh ones for the next (zeroed by the JVM, the larger ones
 * straight into G1's old generation as humongous objects), and its page stores do the same per row group. Every
 * parquet-mr 1.15 writer releases a buffer only after its last use (page bytes are compressed, checksummed and
 * copied before the slabs are reset; dictionary pages are released when the column closes), which is what makes
 * reuse safe.
 *
 * <p>Buffers are kept in power-of-two size classes and handed out as slices of exactly the size asked for, so a
 * writer never sees more capacity than it asked for; a reused buffer is not zeroed (parquet-mr reads only what it
 * wrote). At most {@code maxPooledBytes} of released buffers are kept;
 * a buffer released twice or never handed out here is ignored. Not thread-safe: one pool per file writer thread.
 */
final class PageBufferPool implements ByteBufferAllocator {

    private static final int MIN_CLASS = 12; // 4 KiB
    /**
     * 256 KiB: a page's slabs are at most a fifth of the page size (1 MiB by default). Larger buffers (pages of
     * a row group collected for the file, slabs of larger pages) are allocated as before, at their exact size.
     */
    private static final int MAX_CLASS = 18;

    @SuppressWarnings("unchecked")
    private final ArrayDeque<ByteBuffer>[] free = new ArrayDeque[MAX_CLASS + 1];
    /** The buffers handed out, by the slice the writer holds. */
    private final Map<ByteBuffer, ByteBuffer> lent = new IdentityHashMap<>();
    private final long maxPooledBytes;
    private long pooledBytes;

    PageBufferPool(long maxPooledBytes) {
        this.maxPooledBytes = maxPooledBytes;
        for (int i = MIN_CLASS; i <= MAX_CLASS; i++) {
            free[i] = new ArrayDeque<>();
        }
    }

    @Override
    public ByteBuffer allocate(int size) {
        int sizeClass = sizeClass(size);
        if (sizeClass > MAX_CLASS) {
            return ByteBuffer.allocate(size);
        }
        ByteBuffer whole = free[sizeClass].pollLast();
        if (whole == null) {
            whole = ByteBuffer.allocate(1 << sizeClass);
        } else {
            pooledBytes -= whole.capacity();
        }
        ByteBuffer slice = whole.duplicate().position(0).limit(size).slice();
        lent.put(slice, whole);
        return slice;
    }

    @Override
    public void release(ByteBuffer buffer) {
        ByteBuffer whole = lent.remove(buffer);
        if (whole != null && pooledBytes + whole.capacity() <= maxPooledBytes) {
            free[sizeClass(whole.capacity())].addLast(whole);
            pooledBytes += whole.capacity();
        }
    }

    @Override
    public boolean isDirect() {
        return false;
    }

    /** Bytes of released buffers kept for reuse. */
    long pooledBytes() {
        return pooledBytes;
    }

    /** Buffers handed out and not yet released. */
    int lentBuffers() {
        return lent.size();
    }

    private static int sizeClass(int size) {
        return Math.max(MIN_CLASS, 32 - Integer.numberOfLeadingZeros(Math.max(size, 1) - 1));
    }
}
