package io.lakesync.bench.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.apache.fluss.metadata.TableBucket;
import org.junit.jupiter.api.Test;

class WrittenHistoryTest {

    private static final long SECOND = 1_000_000_000L;
    private static final TableBucket T1_B0 = new TableBucket(1, 0);
    private static final TableBucket T1_B1 = new TableBucket(1, 1);
    private static final TableBucket T2_B0 = new TableBucket(2, 0);

    @Test
    void theLakeIsBehindSinceTheOldestSampleHoldingARowItLacks() {
        WrittenHistory history = new WrittenHistory(Duration.ofMinutes(1));
        history.add(10 * SECOND, Map.of(T1_B0, 5L, T1_B1, 0L));
        history.add(11 * SECOND, Map.of(T1_B0, 8L, T1_B1, 2L));
        history.add(12 * SECOND, Map.of(T1_B0, 9L, T1_B1, 2L));

        assertThat(history.behind(1, Map.of(T1_B0, 9L, T1_B1, 2L), 13 * SECOND)).isZero();
        assertThat(history.behind(1, Map.of(T1_B0, 8L, T1_B1, 2L), 13 * SECOND)).isEqualTo(Duration.ofSeconds(1));
        assertThat(history.behind(1, Map.of(T1_B0, 9L), 13 * SECOND)).as("a bucket never tiered").isEqualTo(Duration.ofSeconds(2));
        assertThat(history.behind(1, Map.of(), 13 * SECOND)).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void otherTablesDoNotCount() {
        WrittenHistory history = new WrittenHistory(Duration.ofMinutes(1));
        history.add(10 * SECOND, Map.of(T1_B0, 5L, T2_B0, 7L));

        assertThat(history.behind(1, Map.of(T1_B0, 5L), 20 * SECOND)).isZero();
        assertThat(history.behind(2, Map.of(T1_B0, 5L), 20 * SECOND)).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void samplesOlderThanTheSpanAreForgotten() {
        WrittenHistory history = new WrittenHistory(Duration.ofSeconds(5));
        history.add(10 * SECOND, Map.of(T1_B0, 5L));
        history.add(20 * SECOND, Map.of(T1_B0, 6L));

        assertThat(history.behind(1, Map.of(), 21 * SECOND)).isEqualTo(Duration.ofSeconds(1));
    }
}
