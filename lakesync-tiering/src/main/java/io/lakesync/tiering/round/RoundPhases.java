package io.lakesync.tiering.round;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Where a round's wall time went, phase by phase, in the order the phases ended: what a small table's round
 * costs is mostly fixed per round (Fluss round trips, loading the lake table, the Paimon commit), and this is
 * how an operator or a benchmark sees which part. Not thread-safe: the round's own thread marks the phases.
 */
public final class RoundPhases {

    private final Clock clock;
    private final Map<String, Duration> phases = new LinkedHashMap<>();
    private Instant phaseStart;

    RoundPhases(Clock clock) {
        this.clock = clock;
        this.phaseStart = clock.instant();
    }

    /** No phases: a round result made outside a {@link TableRound}. */
    public static RoundPhases none() {
        return new RoundPhases(Clock.systemUTC());
    }

    /** Ends the phase {@code name}, which began when the previous one ended; a repeated name adds up. */
    void ended(String name) {
        Instant now = clock.instant();
        phases.merge(name, Duration.between(phaseStart, now), Duration::plus);
        phaseStart = now;
    }

    public Map<String, Duration> durations() {
        return Map.copyOf(phases);
    }

    /** For example {@code "table info 12 ms, lake load 40 ms, read+write 103 ms"}; empty without phases. */
    @Override
    public String toString() {
        StringJoiner line = new StringJoiner(", ");
        phases.forEach((name, took) -> line.add(name + " " + took.toMillis() + " ms"));
        return line.toString();
    }
}
