package io.lakesync.bench.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LagTrackerTest {

    @Test
    void lagIsTheAgeOfTheOldestRecordNotYetInTheLake() {
        LagTracker tracker = new LagTracker();
        tracker.observe("t#0", 1_000, 10, 0); // offsets 0..9 visible from t=1s
        assertThat(tracker.endSample()).isEqualTo(0);
        tracker.observe("t#0", 3_000, 20, 0); // 10..19 visible from t=3s, nothing tiered
        assertThat(tracker.endSample()).isEqualTo(2_000);
        tracker.observe("t#0", 4_000, 20, 10); // 0..9 tiered: oldest pending is offset 10, seen at t=3s
        assertThat(tracker.endSample()).isEqualTo(1_000);
        tracker.observe("t#0", 5_000, 20, 20); // all tiered
        assertThat(tracker.endSample()).isEqualTo(0);
    }

    @Test
    void uncountedSamplesKeepTheHistoryButStayOutOfTheStats() {
        LagTracker tracker = new LagTracker();
        tracker.observe("t#0", 0, 10, 0);
        tracker.endSample(false);
        tracker.observe("t#0", 5_000, 10, 0); // still pending since t=0, seen in the uncounted sample
        assertThat(tracker.endSample(false)).isEqualTo(5_000);
        tracker.observe("t#0", 6_000, 10, 0);
        assertThat(tracker.endSample()).isEqualTo(6_000);
        assertThat(tracker.stats().samples()).isEqualTo(1);
        assertThat(tracker.stats().maxSeconds()).isEqualTo(6.0);
    }

    @Test
    void sampleLagIsTheWorstBucket() {
        LagTracker tracker = new LagTracker();
        tracker.observe("a#0", 0, 5, 0);
        tracker.observe("b#0", 0, 5, 5);
        tracker.endSample();
        tracker.observe("a#0", 7_000, 5, 0);
        tracker.observe("b#0", 7_000, 9, 5);
        assertThat(tracker.endSample()).isEqualTo(7_000);
    }

    @Test
    void statsArePercentilesOfTheSamplesInSeconds() {
        LagTracker tracker = new LagTracker();
        for (int i = 1; i <= 100; i++) {
            tracker.observe("t#0", 0, 1, 0);
            tracker.observe("t#0", i * 1_000L, 1, 0); // lag i seconds
            tracker.endSample();
        }
        LagTracker.LagStats stats = tracker.stats();
        assertThat(stats.samples()).isEqualTo(100);
        assertThat(stats.p50Seconds()).isEqualTo(50.0);
        assertThat(stats.p99Seconds()).isEqualTo(99.0);
        assertThat(stats.maxSeconds()).isEqualTo(100.0);
        assertThat(LagTracker.percentile(List.of(4L), 0.99)).isEqualTo(4);
        assertThat(new LagTracker().stats().samples()).isZero();
    }
}
