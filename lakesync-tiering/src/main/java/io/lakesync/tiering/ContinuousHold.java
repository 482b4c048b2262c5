package io.lakesync.tiering;

import java.time.Duration;
import java.time.Instant;
import javax.annotation.Nullable;

/**
 * Continuous mode: whether a busy table is kept after a successful round, and how long it pauses before the
 * next one. Kept, one round every half freshness (at once after a round that stopped at its freshness cap),
 * instead of waiting a full freshness for the coordinator to offer it again; but not after the last round of
 * the hand-out (another table waits), for at most {@code maxHold} per hand-out, and only until no record came
 * for a full freshness (at least {@link #MIN_QUIET_BEFORE_HAND_BACK}) since the last record or, before the
 * first, since the hand-out: a table taken before its writer starts is kept through its first empty rounds.
 */
record ContinuousHold(boolean enabled, Duration maxHold) {

    /**
     * The least time a busy table is kept through empty rounds: about what handing it back costs before the
     * coordinator offers it again (its scheduling timer ticks once a second, then the next poll), so a short
     * freshness never turns a writer's batching pause into seconds of lag.
     */
    static final Duration MIN_QUIET_BEFORE_HAND_BACK = Duration.ofSeconds(1);

    /** Where a hand-out stands when its round succeeded. */
    record Round(
            @Nullable Duration freshness,
            Instant heldSince,
            @Nullable Instant lastRecordsAt,
            Instant now,
            boolean lastRound,
            boolean forceFinished,
            Duration duration) {}

    /** The pause before the next round of the same hand-out, or null to hand the table back. */
    @Nullable
    Duration pause(Round round) {
        Duration freshness = round.freshness();
        if (!enabled
                || freshness == null
                || round.lastRound()
                || quietFor(round, max(freshness, MIN_QUIET_BEFORE_HAND_BACK))
                || Duration.between(round.heldSince(), round.now()).compareTo(maxHold) >= 0) {
            return null;
        }
        if (round.forceFinished()) {
            return Duration.ZERO;
        }
        Duration pause = freshness.dividedBy(2).minus(round.duration());
        return pause.isNegative() ? Duration.ZERO : pause;
    }

    private static boolean quietFor(Round round, Duration quiet) {
        Instant last = round.lastRecordsAt() != null ? round.lastRecordsAt() : round.heldSince();
        return Duration.between(last, round.now()).compareTo(quiet) >= 0;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
