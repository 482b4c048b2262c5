package io.lakesync.tiering.columnar.write;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import javax.annotation.Nullable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.io.compress.Compressor;
import org.apache.paimon.shade.org.apache.parquet.bytes.BytesInput;
import org.apache.paimon.shade.org.apache.parquet.hadoop.CodecFactory;
import org.apache.paimon.shade.org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * parquet-mr's codec factory, with compressors that hand each compressed page out of their own buffer. parquet-mr's
 * heap compressor hands out its output stream, which the page store then copies into a new array of the page's
 * size before copying it into the row group's buffer: one allocation and copy per page that this one saves. The
 * codecs, their settings and so the compressed bytes are parquet-mr's. A compressed page is valid until the
 * compressor's next page, as parquet-mr's own.
 */
final class PageCodecFactory extends CodecFactory {

    PageCodecFactory(Configuration conf, int pageSize) {
        super(conf, pageSize);
    }

    @Override
    protected BytesCompressor createCompressor(CompressionCodecName codecName) {
        CompressionCodec codec = getCodec(codecName);
        return codec == null ? super.createCompressor(codecName) : new BufferCompressor(codecName, codec, pageSize);
    }

    /**
     * What a compressor's buffer starts with; it grows to the largest compressed page once. A round of a small table
     * writes pages far below the page size, and zeroing a page-sized array for each writer was 1% of the CPU of
     * syncing 200 small tables.
     */
    static final int FIRST_BUFFER_BYTES = 64 * 1024;

    private static final class BufferCompressor extends BytesCompressor {
        private final CompressionCodecName codecName;
        private final CompressionCodec codec;
        /** Null for codecs without a native compressor. */
        private final @Nullable Compressor compressor;
        private final PageBuffer compressed;

        BufferCompressor(CompressionCodecName codecName, CompressionCodec codec, int pageSize) {
            this.codecName = codecName;
            this.codec = codec;
            this.compressor = CodecPool.getCompressor(codec);
            this.compressed = new PageBuffer(Math.min(pageSize, FIRST_BUFFER_BYTES));
        }

        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            compressed.reset();
            if (compressor != null) {
                compressor.reset();
            }
            try (CompressionOutputStream out = codec.createOutputStream(compressed, compressor)) {
                bytes.writeAllTo(out);
                out.finish();
            }
            return BytesInput.from(compressed.bytes(), 0, compressed.size());
        }

        @Override
        public CompressionCodecName getCodecName() {
            return codecName;
        }

        @Override
        public void release() {
            if (compressor != null) {
                CodecPool.returnCompressor(compressor);
            }
        }
    }

    /** A byte array stream that shows its array. */
    private static final class PageBuffer extends ByteArrayOutputStream {
        PageBuffer(int size) {
            super(size);
        }

        byte[] bytes() {
            return buf;
        }
    }
}
