package io.lakesync.tiering.columnar.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.paimon.shade.org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.Test;

class ColumnBufferTest {

    @Test
    void allDistinctComparesTheFirstNonNullValuesByContent() {
        ColumnBuffer strings = ColumnBuffer.of(PrimitiveTypeName.BINARY);
        ColumnBuffer longs = ColumnBuffer.of(PrimitiveTypeName.INT64);
        for (int row = 0; row < 10; row++) {
            byte[] text = ("v" + row).getBytes(StandardCharsets.UTF_8);
            strings.writeBytes(text, 0, text.length);
            longs.write((long) row, 0, 1);
            strings.writeNull(0, 0);
            longs.writeNull(0, 0);
        }
        // Equal bytes in different arrays repeat; a repeat after the sampled values does not count.
        byte[] again = "v0".getBytes(StandardCharsets.UTF_8);
        strings.writeBytes(again, 0, again.length);
        longs.write(0L, 0, 1);

        assertThat(strings.allDistinct(20, 10, 10)).as("the ten values before the repeat").isTrue();
        assertThat(longs.allDistinct(20, 10, 10)).isTrue();
        assertThat(strings.allDistinct(21, 10, 11)).as("the repeat sampled").isFalse();
        assertThat(longs.allDistinct(21, 10, 11)).isFalse();
        assertThat(strings.allDistinct(20, 11, 20)).as("fewer values than the minimum").isFalse();
    }
}
