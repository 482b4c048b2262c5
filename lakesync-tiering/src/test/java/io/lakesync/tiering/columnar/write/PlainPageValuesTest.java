package io.lakesync.tiering.columnar.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.paimon.shade.org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.paimon.shade.org.apache.parquet.column.Encoding;
import org.apache.paimon.shade.org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.paimon.shade.org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;

class PlainPageValuesTest {

    @Test
    void pagesOfEveryKindOfValueAreParquetMrsPlainBytes() throws Exception {
        Random random = new Random(11);
        // A tiny first buffer, so the array grows several times within a page.
        PlainPageValues ours = new PlainPageValues(16);
        PlainValuesWriter parquetMr = new PlainValuesWriter(64, 1 << 20, new HeapByteBufferAllocator());
        for (int page = 0; page < 3; page++) {
            for (int i = 0; i < 5_000; i++) {
                switch (random.nextInt(6)) {
                    case 0 -> {
                        int v = random.nextInt();
                        ours.writeInteger(v);
                        parquetMr.writeInteger(v);
                    }
                    case 1 -> {
                        long v = random.nextLong();
                        ours.writeLong(v);
                        parquetMr.writeLong(v);
                    }
                    case 2 -> {
                        float v = random.nextBoolean() ? Float.NaN : random.nextFloat() - 0.5f;
                        ours.writeFloat(v);
                        parquetMr.writeFloat(v);
                    }
                    case 3 -> {
                        double v = random.nextGaussian();
                        ours.writeDouble(v);
                        parquetMr.writeDouble(v);
                    }
                    case 4 -> {
                        // A slice in the middle of a larger array, as the Arrow columns hand strings over.
                        byte[] backing = new byte[random.nextInt(200) + 10];
                        random.nextBytes(backing);
                        int offset = random.nextInt(5);
                        int length = random.nextInt(backing.length - offset);
                        ours.writeBytes(Binary.fromConstantByteArray(backing, offset, length));
                        parquetMr.writeBytes(Binary.fromConstantByteArray(backing, offset, length));
                    }
                    default -> {
                        Binary value = Binary.fromConstantByteBuffer(
                                ByteBuffer.wrap(("value " + i).getBytes(StandardCharsets.UTF_8)));
                        ours.writeBytes(value);
                        parquetMr.writeBytes(value);
                    }
                }
                assertThat(ours.getBufferedSize()).isEqualTo(parquetMr.getBufferedSize());
            }
            assertThat(ours.getBytes().toByteArray()).as("page %d", page).isEqualTo(parquetMr.getBytes().toByteArray());
            ours.reset();
            parquetMr.reset();
            assertThat(ours.getBufferedSize()).isZero();
        }
        assertThat(ours.getEncoding()).isEqualTo(parquetMr.getEncoding()).isEqualTo(Encoding.PLAIN);
        parquetMr.close();
    }
}
