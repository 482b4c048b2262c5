package io.lakesync.bench.contender;

import io.lakesync.tiering.TieringListener;
import io.lakesync.tiering.capacity.RoundUsage;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** What contender B's rounds cost, as its engine measures them: rounds with rows and empty ones apart. */
final class RoundCosts implements TieringListener {

    private final LongAdder rounds = new LongAdder();
    private final LongAdder roundsCpuNanos = new LongAdder();
    private final LongAdder emptyRounds = new LongAdder();
    private final LongAdder emptyRoundsCpuNanos = new LongAdder();
    private final LongAdder emptyRoundsWallNanos = new LongAdder();

    @Override
    public void roundMeasured(RoundUsage usage) {
        rounds.increment();
        roundsCpuNanos.add(usage.cpuNanos());
        if (usage.rows() == 0) {
            emptyRounds.increment();
            emptyRoundsCpuNanos.add(usage.cpuNanos());
            emptyRoundsWallNanos.add(usage.wallTime().toNanos());
        }
    }

    Map<String, Object> figures() {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("rounds", rounds.sum());
        figures.put("roundsCpuNanos", roundsCpuNanos.sum());
        figures.put("emptyRounds", emptyRounds.sum());
        figures.put("emptyRoundsCpuNanos", emptyRoundsCpuNanos.sum());
        figures.put("emptyRoundsWallNanos", emptyRoundsWallNanos.sum());
        return figures;
    }
}
