package io.lakesync.retry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryBackoffTest {

    @Test
    void doublesFromTheInitialDelayUpToTheCap() {
        RetryBackoff backoff = new RetryBackoff(Duration.ofSeconds(1), Duration.ofSeconds(10), () -> 0.5);
        assertThat(backoff.delay(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.delay(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(backoff.delay(4)).isEqualTo(Duration.ofSeconds(8));
        assertThat(backoff.delay(5)).isEqualTo(Duration.ofSeconds(10));
        assertThat(backoff.delay(500)).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void jitterStaysWithinTwentyPercentAndNeverPassesTheCap() {
        RetryBackoff low = new RetryBackoff(Duration.ofSeconds(1), Duration.ofSeconds(10), () -> 0.0);
        RetryBackoff high = new RetryBackoff(Duration.ofSeconds(1), Duration.ofSeconds(10), () -> 0.999);
        assertThat(low.delay(2)).isEqualTo(Duration.ofMillis(1600));
        assertThat(high.delay(2)).isBetween(Duration.ofMillis(2390), Duration.ofMillis(2400));
        assertThat(high.delay(10)).isEqualTo(Duration.ofSeconds(10));
    }
}
