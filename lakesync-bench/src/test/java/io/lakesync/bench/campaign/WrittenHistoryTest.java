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
    void theLakeWasBehindSinceTheOldestFlussSampleHoldingARowItStillLackedAfterwards() {
        WrittenHistory history = new WrittenHistory(Duration.ofMinutes(1));
        history.fluss(10 * SECOND, Map.of(T1_B0, 5L, T1_B1, 0L));
        history.fluss(11 * SECOND, Map.of(T1_B0, 8L, T1_B1, 2L));
        history.fluss(12 * SECOND, Map.of(T1_B0, 9L, T1_B1, 2L));
        history.lake(13 * SECOND, Map.of(T1_B0, 8L));
        history.lake(14 * SECOND, Map.of(T1_B0, 9L, T1_B1, 2L));

        assertThat(history.behind(1, 12 * SECOND + 1)).as("lacking bucket 1's rows of 11 s")
                .contains(Duration.ofSeconds(1).plusNanos(1));
        assertThat(history.behind(1, 13 * SECOND + 1)).as("the lake's later sample holds everything").contains(Duration.ZERO);
        assertThat(history.behind(1, 15 * SECOND)).as("no lake sample from then on yet").isEmpty();
    }

    @Test
    void flussSamplesAfterTheMomentAndOtherTablesDoNotCount() {
        WrittenHistory history = new WrittenHistory(Duration.ofMinutes(1));
        history.fluss(10 * SECOND, Map.of(T1_B0, 5L, T2_B0, 7L));
        history.fluss(20 * SECOND, Map.of(T1_B0, 6L, T2_B0, 7L));
        history.lake(21 * SECOND, Map.of(T1_B0, 5L));

        assertThat(history.behind(1, 15 * SECOND)).contains(Duration.ZERO);
        assertThat(history.behind(2, 15 * SECOND)).contains(Duration.ofSeconds(5));
    }

    @Test
    void samplesOlderThanTheSpanAreForgotten() {
        WrittenHistory history = new WrittenHistory(Duration.ofSeconds(5));
        history.fluss(10 * SECOND, Map.of(T1_B0, 5L));
        history.fluss(20 * SECOND, Map.of(T1_B0, 6L));
        history.lake(21 * SECOND, Map.of());

        assertThat(history.behind(1, 21 * SECOND)).contains(Duration.ofSeconds(1));
    }
}
