package io.lakesync.bench.campaign;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Which fault comes next and how long it holds, drawn from a seeded random stream so that a campaign can be
 * replayed: the kinds come in rounds, each kind once per round in a random order (every kind gets its share even
 * in a short campaign), and each fault holds a random time between the plan's bounds. The faults draw what they
 * need (which instance, how long a delay) from the same stream ({@link #random()}).
 */
final class FaultPlan {

    /** The next fault: its kind (an index into the plan's kinds) and how long it holds. */
    record Next(int kind, Duration hold) {}

    private final SplittableRandom random;
    private final int kinds;
    private final Duration minHold;
    private final Duration maxHold;
    private final List<Integer> round = new ArrayList<>();

    FaultPlan(long seed, int kinds, Duration minHold, Duration maxHold) {
        if (kinds < 1 || minHold.compareTo(maxHold) > 0) {
            throw new IllegalArgumentException("A fault plan needs a kind and minHold <= maxHold");
        }
        this.random = new SplittableRandom(seed);
        this.kinds = kinds;
        this.minHold = minHold;
        this.maxHold = maxHold;
    }

    Next next() {
        if (round.isEmpty()) {
            for (int kind = 0; kind < kinds; kind++) {
                round.add(random.nextInt(round.size() + 1), kind);
            }
        }
        long spread = maxHold.toMillis() - minHold.toMillis();
        return new Next(round.remove(round.size() - 1), minHold.plusMillis(random.nextLong(spread + 1)));
    }

    SplittableRandom random() {
        return random;
    }
}
