package io.lakesync.tiering.columnar.write;

import java.io.IOException;
import org.apache.paimon.fs.PositionOutputStream;

/**
 * A buffer in front of a lake file's output stream. Parquet writes its page headers and footer through Thrift a
 * field at a time, a few bytes per call, and Paimon's local and Hadoop streams pass each call straight to the
 * file system: a small table's file took one system call per footer field, about a tenth of a many-tables
 * round's CPU. Writes at least as large as the buffer go through unbuffered, after what is buffered.
 * Not thread-safe, like the stream it wraps.
 */
final class BufferedPositionOutputStream extends PositionOutputStream {

    private static final int BUFFER_SIZE = 32 * 1024;

    private final PositionOutputStream out;
    private final byte[] buffer;
    private int buffered;

    BufferedPositionOutputStream(PositionOutputStream out) {
        this(out, BUFFER_SIZE);
    }

    BufferedPositionOutputStream(PositionOutputStream out, int bufferSize) {
        this.out = out;
        this.buffer = new byte[bufferSize];
    }

    @Override
    public long getPos() throws IOException {
        return out.getPos() + buffered;
    }

    @Override
    public void write(int b) throws IOException {
        if (buffered == buffer.length) {
            flushBuffer();
        }
        buffer[buffered++] = (byte) b;
    }

    @Override
    public void write(byte[] bytes) throws IOException {
        write(bytes, 0, bytes.length);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (length >= buffer.length) {
            flushBuffer();
            out.write(bytes, offset, length);
            return;
        }
        if (length > buffer.length - buffered) {
            flushBuffer();
        }
        System.arraycopy(bytes, offset, buffer, buffered, length);
        buffered += length;
    }

    @Override
    public void flush() throws IOException {
        flushBuffer();
        out.flush();
    }

    /** Writes out what is buffered and closes the stream; the stream is closed even when that write fails. */
    @Override
    public void close() throws IOException {
        try {
            flushBuffer();
        } finally {
            out.close();
        }
    }

    private void flushBuffer() throws IOException {
        if (buffered > 0) {
            out.write(buffer, 0, buffered);
            buffered = 0;
        }
    }
}
