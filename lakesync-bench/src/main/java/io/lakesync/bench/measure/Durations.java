package io.lakesync.bench.measure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Durations written the way the benchmark's options take them. */
public final class Durations {

    private Durations() {}

    /** 500ms, 30s, 10min, 2h. */
    public static String text(Duration d) {
        long ms = d.toMillis();
        if (ms != 0 && ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms != 0 && ms % 60_000 == 0) {
            return ms / 60_000 + "min";
        }
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }

    /** The p50, p90 and max of {@code millis} in seconds, {@code 1.2 s / 2.0 s / 4.1 s}; "–" for none. */
    public static String spread(List<Long> millis) {
        if (millis.isEmpty()) {
            return "–";
        }
        List<Long> sorted = new ArrayList<>(millis);
        sorted.sort(null);
        return String.format("%.1f s / %.1f s / %.1f s", LagTracker.percentile(sorted, 0.5) / 1000.0,
                LagTracker.percentile(sorted, 0.9) / 1000.0, sorted.get(sorted.size() - 1) / 1000.0);
    }
}
