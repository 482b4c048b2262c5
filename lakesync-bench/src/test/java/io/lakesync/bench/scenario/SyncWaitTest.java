package io.lakesync.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SyncWaitTest {

    @Test
    void syncedWhenEveryWrittenBucketIsInTheLake() {
        assertThat(SyncWait.caughtUp(Map.of(0, 10L, 1, 5L), Map.of(0, 10L, 1, 5L))).isTrue();
        assertThat(SyncWait.caughtUp(Map.of(0, 10L, 1, 0L), Map.of(0, 10L))).as("empty bucket").isTrue();
        assertThat(SyncWait.caughtUp(Map.of(0, 10L, 1, 5L), Map.of(0, 10L, 1, 4L))).isFalse();
        assertThat(SyncWait.caughtUp(Map.of(0, 10L), Map.of())).as("no lake snapshot yet").isFalse();
    }

    @Test
    void pollsLessOftenWhileManyTablesArePending() {
        assertThat(SyncWait.pollMillis(1)).isEqualTo(SyncWait.POLL_MILLIS);
        assertThat(SyncWait.pollMillis(20)).isEqualTo(SyncWait.POLL_MILLIS);
        assertThat(SyncWait.pollMillis(200)).isEqualTo(500);
    }

    @Test
    void bucketsThatStartedPastTheBaseSnapshotAreCounted() {
        Map<Integer, Long> base = Map.of(0, 80L, 1, 70L, 2, 0L);
        assertThat(BackfillScenario.bucketsPast(Map.of(0, 80L, 1, 90L), base)).isEqualTo(1);
        assertThat(BackfillScenario.bucketsPast(Map.of(0, 80L, 1, 70L), base)).isZero();
        assertThat(BackfillScenario.bucketsPast(Map.of(3, 5L), base)).as("bucket without base snapshot").isZero();
    }
}
