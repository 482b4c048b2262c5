package io.lakesync.status;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.annotation.Nullable;
import org.apache.fluss.client.metadata.LakeSnapshot;

/**
 * The readable lake snapshot of each table as the coordinator last answered it, and which tables a status refresh
 * asks for it again. Fluss 0.9.1 answers one table per request, and the coordinator reads the table's ZooKeeper node
 * and offsets file for each, so asking for every table in every refresh costs most of a refresh at 1,000 tables;
 * a table's readable snapshot changes only when a tiering job commits, which a refresh mostly knows about.
 *
 * <pre>
 *   unknown ──ask──▶ known (answer, its refresh, its time, rounds ended then)
 *      ▲               │ asked again in a refresh where
 *      │               │   an engine ended a round of the table since (lakesync's own commits, on any instance)
 *      │               │   the table had pending records and the answer is older than its freshness
 *      │               │     (a tiering job outside lakesync: it never shows LAGGING on an answer that old)
 *      │               │   the answer is {@code recheckRefreshes} refreshes old (anything else, e.g. a readable
 *      │               │     snapshot moved by compaction); first answers get a spread lifetime, so about
 *      │               │     1/{@code recheckRefreshes} of the idle tables are asked per refresh, not all at once
 *      └──ask failed───┘
 * </pre>
 *
 * One refresh at a time uses it; what the refresh saw of a table may be reported from its pool
 * ({@link #observed}).
 */
final class LakeSnapshotCache {

    /** A table's last answer; {@code snapshot} null when the table has no readable lake snapshot yet. */
    private record Answer(@Nullable LakeSnapshot snapshot, long roundsEnded, long expiresAtRefresh, Instant askedAt,
            boolean pending) {

        Answer withPending(boolean nowPending) {
            return new Answer(snapshot, roundsEnded, expiresAtRefresh, askedAt, nowPending);
        }
    }

    private final Clock clock;
    private final int recheckRefreshes;
    private final Map<Long, Answer> answers = new ConcurrentHashMap<>();
    private long refresh;
    private long firstAnswers;

    /** @param recheckRefreshes after how many refreshes an answer is asked for again in any case */
    LakeSnapshotCache(Clock clock, int recheckRefreshes) {
        if (recheckRefreshes < 1) {
            throw new IllegalArgumentException("recheckRefreshes must be at least 1, not " + recheckRefreshes);
        }
        this.clock = clock;
        this.recheckRefreshes = recheckRefreshes;
    }

    /** A refresh begins; answers age by one refresh. */
    void nextRefresh() {
        refresh++;
    }

    /**
     * Whether this refresh asks the coordinator for the table's readable lake snapshot.
     *
     * @param roundsEnded rounds the engines ended of the table so far (successful or failed; any instance)
     * @param freshness the table's {@code table.datalake.freshness}
     */
    boolean mustAsk(long tableId, long roundsEnded, Duration freshness) {
        Answer answer = answers.get(tableId);
        return answer == null
                || answer.roundsEnded() != roundsEnded
                || refresh >= answer.expiresAtRefresh()
                || (answer.pending() && !clock.instant().isBefore(answer.askedAt().plus(freshness)));
    }

    /** The table's last answer: its readable lake snapshot, null when it has none (or was never asked). */
    @Nullable
    LakeSnapshot snapshot(long tableId) {
        Answer answer = answers.get(tableId);
        return answer == null ? null : answer.snapshot();
    }

    /**
     * The coordinator answered, to a request sent after {@code roundsEnded} was read (so a round ending later
     * changes it, and the table is asked again).
     */
    void answered(long tableId, @Nullable LakeSnapshot snapshot, long roundsEnded) {
        Answer previous = answers.get(tableId);
        long lifetime = previous == null ? 1 + firstAnswers++ % recheckRefreshes : recheckRefreshes;
        answers.put(tableId, new Answer(snapshot, roundsEnded, refresh + lifetime, clock.instant(),
                previous != null && previous.pending()));
    }

    /** Asking failed: the table is asked again next refresh, and nothing is shown from an older answer. */
    void failed(long tableId) {
        answers.remove(tableId);
    }

    /** What the refresh saw of the table: records not yet in the lake snapshot it has, or none. */
    void observed(long tableId, boolean pending) {
        answers.computeIfPresent(tableId, (id, answer) -> answer.withPending(pending));
    }

    /** Forgets every table but {@code tableIds} (the others were dropped or turned lake sync off). */
    void retainOnly(Collection<Long> tableIds) {
        answers.keySet().retainAll(tableIds);
    }

    int size() {
        return answers.size();
    }
}
