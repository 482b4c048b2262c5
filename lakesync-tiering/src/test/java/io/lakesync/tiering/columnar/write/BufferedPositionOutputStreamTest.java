package io.lakesync.tiering.columnar.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BufferedPositionOutputStreamTest {

    @TempDir Path dir;

    @Test
    void mixedWritesLandInOrderWithTheRightPositionsAndFewFileWrites() throws IOException {
        Path file = dir.resolve("data.parquet");
        CountingStream counting = new CountingStream(localStream(file));
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        Random random = new Random(7);
        try (BufferedPositionOutputStream out = new BufferedPositionOutputStream(counting, 1024)) {
            for (int i = 0; i < 2000; i++) {
                int kind = random.nextInt(100);
                if (kind < 10) {
                    out.write(i);
                    expected.write(i);
                } else {
                    // Mostly Thrift-sized pieces, now and then one larger than the buffer (a page's bytes).
                    byte[] bytes = new byte[kind == 99 ? 1024 + random.nextInt(3000) : 1 + random.nextInt(12)];
                    random.nextBytes(bytes);
                    int offset = bytes.length > 2 ? 1 : 0;
                    out.write(bytes, offset, bytes.length - offset);
                    expected.write(bytes, offset, bytes.length - offset);
                }
                assertThat(out.getPos()).isEqualTo(expected.size());
            }
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(expected.toByteArray());
        assertThat(counting.closed).isTrue();
        // About 2,000 writes, 20 of them large: without the buffer each would be one write to the file.
        assertThat(counting.writes).isLessThan(100);
    }

    @Test
    void closeClosesTheFileEvenWhenWritingTheBufferFails() throws IOException {
        CountingStream counting = new CountingStream(localStream(dir.resolve("data.parquet")));
        BufferedPositionOutputStream out = new BufferedPositionOutputStream(counting, 1024);
        out.write(new byte[] {1, 2, 3});
        counting.failWrites = true;

        assertThatThrownBy(out::close).isInstanceOf(IOException.class).hasMessageContaining("disk full");
        assertThat(counting.closed).isTrue();
    }

    private static PositionOutputStream localStream(Path file) throws IOException {
        return LocalFileIO.create().newOutputStream(new org.apache.paimon.fs.Path(file.toUri()), false);
    }

    /** Counts the writes that reach the real file stream, and can fail them (a full disk, which a test cannot cause). */
    private static final class CountingStream extends PositionOutputStream {
        private final PositionOutputStream delegate;
        int writes;
        boolean closed;
        boolean failWrites;

        CountingStream(PositionOutputStream delegate) {
            this.delegate = delegate;
        }

        @Override
        public long getPos() throws IOException {
            return delegate.getPos();
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b) throws IOException {
            write(b, 0, b.length);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (failWrites) {
                throw new IOException("disk full");
            }
            writes++;
            delegate.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            delegate.flush();
        }

        @Override
        public void close() throws IOException {
            closed = true;
            delegate.close();
        }
    }
}
