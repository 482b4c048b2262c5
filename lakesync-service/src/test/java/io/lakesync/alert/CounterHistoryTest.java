package io.lakesync.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CounterHistoryTest {

    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    private static final Duration TEN_MINUTES = Duration.ofMinutes(10);

    private final CounterHistory history = new CounterHistory();

    private void sample(int minute, double failures) {
        history.record(T0.plus(Duration.ofMinutes(minute)),
                Map.of("fluss.orders", Map.of("failuresTotal", failures, "pendingRecords", 99.0)), TEN_MINUTES);
    }

    private Double increaseAt(int minute) {
        return history.increase("fluss.orders", "failuresTotal", TEN_MINUTES, T0.plus(Duration.ofMinutes(minute)));
    }

    @Test
    void countsTheIncreaseSinceTheLastSampleBeforeTheWindow() {
        sample(0, 10);
        sample(5, 12);
        sample(12, 15);

        assertThat(increaseAt(12)).as("from the sample at minute 0, the last one at or before minute 2").isEqualTo(5);
        sample(16, 15);
        assertThat(increaseAt(16)).as("from the sample at minute 5").isEqualTo(3);
        sample(30, 15);
        assertThat(increaseAt(30)).isEqualTo(0);
    }

    @Test
    void aShortHistoryCountsFromItsOldestSample() {
        sample(0, 4);
        assertThat(increaseAt(0)).isEqualTo(0);
        sample(1, 9);
        assertThat(increaseAt(1)).isEqualTo(5);
    }

    @Test
    void aCounterThatWentDownWasResetAndCountsFromZero() {
        sample(0, 100);
        sample(1, 102);
        sample(2, 3);

        assertThat(increaseAt(2)).isEqualTo(2 + 3);
    }

    @Test
    void gaugesAndUnknownTablesHaveNoHistory() {
        sample(0, 1);

        assertThat(history.increase("fluss.orders", "pendingRecords", TEN_MINUTES, T0)).isNull();
        assertThat(history.increase("fluss.other", "failuresTotal", TEN_MINUTES, T0)).isNull();
    }

    @Test
    void forgetsTablesThatAreNoLongerReported() {
        sample(0, 1);
        history.record(T0.plusSeconds(60), Map.of(), TEN_MINUTES);

        assertThat(history.increase("fluss.orders", "failuresTotal", TEN_MINUTES, T0.plusSeconds(60))).isNull();
    }
}
