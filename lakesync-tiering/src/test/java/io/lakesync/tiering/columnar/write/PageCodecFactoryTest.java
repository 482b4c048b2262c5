package io.lakesync.tiering.columnar.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.shade.org.apache.parquet.bytes.BytesInput;
import org.apache.paimon.shade.org.apache.parquet.hadoop.CodecFactory;
import org.apache.paimon.shade.org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PageCodecFactoryTest {

    private static final int PAGE_SIZE = 1024 * 1024;

    @ParameterizedTest
    @EnumSource(value = CompressionCodecName.class, names = {"ZSTD", "SNAPPY", "GZIP", "LZ4_RAW"})
    void pagesSmallerAndLargerThanTheFirstBufferCompressAsParquetMrCompressesThem(CompressionCodecName codec)
            throws Exception {
        CodecFactory.BytesCompressor ours = new PageCodecFactory(new Configuration(), PAGE_SIZE).getCompressor(codec);
        CodecFactory.BytesCompressor parquetMr = new CodecFactory(new Configuration(), PAGE_SIZE).getCompressor(codec);
        Random random = new Random(7);
        // Random bytes hardly compress, so the large page's compressed form outgrows the first buffer.
        for (int size : new int[] {100, 4 * PageCodecFactory.FIRST_BUFFER_BYTES, 1000, PAGE_SIZE}) {
            byte[] page = new byte[size];
            random.nextBytes(page);
            byte[] expected = parquetMr.compress(BytesInput.from(page)).toByteArray();
            byte[] actual = ours.compress(BytesInput.from(page)).toByteArray();
            assertThat(actual).as("%s page of %d bytes", codec, size).isEqualTo(expected);
            if (size > PageCodecFactory.FIRST_BUFFER_BYTES) {
                assertThat(actual.length).isGreaterThan(PageCodecFactory.FIRST_BUFFER_BYTES);
            }
        }
        ours.release();
        parquetMr.release();
    }
}
