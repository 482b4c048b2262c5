package io.lakesync.bench.measure;

import java.time.Duration;

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
}
