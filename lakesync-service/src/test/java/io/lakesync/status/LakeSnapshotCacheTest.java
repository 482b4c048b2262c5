package io.lakesync.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.metadata.TableBucket;
import org.junit.jupiter.api.Test;

/** When a status refresh asks the coordinator for a table's readable lake snapshot again ({@link LakeSnapshotCache}). */
class LakeSnapshotCacheTest {

    private static final Duration FRESHNESS = Duration.ofSeconds(30);
    private static final long TABLE = 7;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T05:00:00Z"));

    @Test
    void aTableIsAskedUntilAnswered() {
        LakeSnapshotCache cache = new LakeSnapshotCache(clock, 6);
        cache.nextRefresh();
        assertThat(cache.mustAsk(TABLE, 0, FRESHNESS)).isTrue();
        cache.nextRefresh();
        assertThat(cache.mustAsk(TABLE, 0, FRESHNESS)).as("never answered").isTrue();

        cache.answered(TABLE, snapshot(3, 100), 0);
        assertThat(cache.snapshot(TABLE).getSnapshotId()).isEqualTo(3);
        cache.nextRefresh();
        assertThat(cache.mustAsk(TABLE, 0, FRESHNESS)).as("answered, its first lifetime is one refresh").isTrue();
        cache.answered(TABLE, snapshot(3, 100), 0);
        for (int refresh = 1; refresh < 6; refresh++) {
            cache.nextRefresh();
            assertThat(cache.mustAsk(TABLE, 0, FRESHNESS)).as("refresh %d after the answer", refresh).isFalse();
        }
        cache.nextRefresh();
        assertThat(cache.mustAsk(TABLE, 0, FRESHNESS)).as("six refreshes old").isTrue();
    }

    @Test
    void aRoundEndedSinceTheAnswerAsksAgain() {
        LakeSnapshotCache cache = answeredTwice(6, 4);
        assertThat(cache.mustAsk(TABLE, 4, FRESHNESS)).isFalse();
        assertThat(cache.mustAsk(TABLE, 5, FRESHNESS)).as("a round ended (its commit)").isTrue();

        cache.answered(TABLE, snapshot(4, 200), 5);
        cache.nextRefresh();
        assertThat(cache.mustAsk(TABLE, 5, FRESHNESS)).isFalse();
        assertThat(cache.snapshot(TABLE).getSnapshotId()).isEqualTo(4);
    }

    @Test
    void pendingRecordsOlderThanTheFreshnessAskAgain() {
        LakeSnapshotCache cache = answeredTwice(100, 0);
        clock.advance(FRESHNESS);
        cache.nextRefresh();
        assertThat(cache.mustAsk(TABLE, 0, FRESHNESS)).as("nothing pending: no commit to miss").isFalse();

        cache.observed(TABLE, true);
        clock.advance(Duration.ofSeconds(1));
        assertThat(cache.mustAsk(TABLE, 0, FRESHNESS))
                .as("records pending and the answer older than the freshness: another tiering job may have committed")
                .isTrue();
        cache.answered(TABLE, snapshot(3, 100), 0);
        clock.advance(FRESHNESS.minusSeconds(1));
        cache.nextRefresh();
        assertThat(cache.mustAsk(TABLE, 0, FRESHNESS)).as("still pending, the answer younger than the freshness").isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(cache.mustAsk(TABLE, 0, FRESHNESS)).isTrue();
    }

    @Test
    void idleTablesAreAskedAgainSpreadOverTheRecheckRefreshes() {
        LakeSnapshotCache cache = new LakeSnapshotCache(clock, 4);
        List<Long> tables = LongStream.range(0, 8).boxed().toList();
        cache.nextRefresh();
        tables.forEach(t -> cache.answered(t, snapshot(1, 10), 0));
        List<List<Long>> askedPerRefresh = new ArrayList<>();
        for (int refresh = 0; refresh < 8; refresh++) {
            cache.nextRefresh();
            List<Long> asked = tables.stream().filter(t -> cache.mustAsk(t, 0, FRESHNESS)).toList();
            asked.forEach(t -> cache.answered(t, snapshot(1, 10), 0));
            askedPerRefresh.add(asked);
        }
        assertThat(askedPerRefresh).as("two of the eight tables per refresh, each every four refreshes").containsExactly(
                List.of(0L, 4L), List.of(1L, 5L), List.of(2L, 6L), List.of(3L, 7L),
                List.of(0L, 4L), List.of(1L, 5L), List.of(2L, 6L), List.of(3L, 7L));
    }

    @Test
    void aFailedAskShowsNothingOldAndAsksAgain() {
        LakeSnapshotCache cache = answeredTwice(6, 0);
        cache.failed(TABLE);
        assertThat(cache.snapshot(TABLE)).isNull();
        cache.nextRefresh();
        assertThat(cache.mustAsk(TABLE, 0, FRESHNESS)).isTrue();
    }

    @Test
    void aTableWithoutLakeSnapshotIsKeptAsSuch() {
        LakeSnapshotCache cache = new LakeSnapshotCache(clock, 6);
        cache.nextRefresh();
        cache.answered(TABLE, null, 0);
        cache.nextRefresh();
        cache.answered(TABLE, null, 0);
        cache.nextRefresh();
        assertThat(cache.mustAsk(TABLE, 0, FRESHNESS)).isFalse();
        assertThat(cache.snapshot(TABLE)).isNull();
        assertThat(cache.mustAsk(TABLE, 1, FRESHNESS)).as("its first round ended").isTrue();
    }

    @Test
    void droppedTablesAreForgotten() {
        LakeSnapshotCache cache = answeredTwice(6, 0);
        cache.answered(8, snapshot(1, 1), 0);
        cache.retainOnly(Set.of(8L));
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.snapshot(TABLE)).isNull();
        assertThat(cache.mustAsk(TABLE, 0, FRESHNESS)).isTrue();
    }

    @Test
    void atLeastOneRefreshBetweenRechecks() {
        assertThatThrownBy(() -> new LakeSnapshotCache(clock, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("recheckRefreshes");
    }

    /** A cache that answered {@link #TABLE} in two refreshes (past its first, spread lifetime), then began a third. */
    private LakeSnapshotCache answeredTwice(int recheckRefreshes, long roundsEnded) {
        LakeSnapshotCache cache = new LakeSnapshotCache(clock, recheckRefreshes);
        for (int i = 0; i < 2; i++) {
            cache.nextRefresh();
            cache.answered(TABLE, snapshot(3, 100), roundsEnded);
        }
        cache.nextRefresh();
        return cache;
    }

    private static LakeSnapshot snapshot(long id, long offset) {
        return new LakeSnapshot(id, Map.of(new TableBucket(TABLE, 0), offset));
    }
}
