package io.lakesync.bench.scale;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The scale scenario's results as a Markdown table, one row per phase. */
final class ScaleReport {

    private ScaleReport() {}

    static String render(List<ScaleMain.Phase> phases, int rate) {
        StringBuilder out = new StringBuilder();
        if (!phases.isEmpty()) {
            ScaleMain.Phase first = phases.get(0);
            out.append(String.format(Locale.ROOT, "### scale — %d tables (1 bucket each), %d rows/s in all, freshness %d s%n%n",
                    first.tables(), rate, first.freshness().toSeconds()));
        }
        out.append("| Instances | Lag samples per table | p99 sync latency per table: median / worst (s) | Status refresh median / max (s) (refreshes) | "
                + "CPU per instance (cores) | Peak heap per instance (MB) | Heap per held table (KB) | "
                + "Rounds | CPU per round (ms) | Empty rounds | CPU / wall per empty round (ms) |\n");
        out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (ScaleMain.Phase p : phases) {
            long maxHeap = p.peakHeapBytes().stream().mapToLong(Long::longValue).max().orElse(0);
            out.append(String.format(Locale.ROOT, "| %d | %d | %.1f / %.1f | %.1f / %.1f (%d) | %s | %s | %.0f | %d | %.1f | %d | %.1f / %.1f |%n",
                    p.instances(), p.lagSamples(), p.p50OfTableP99s(), p.maxTableP99(), p.refreshMedianSeconds(), p.refreshMaxSeconds(),
                    p.refreshes(),
                    p.cpuCores().stream().map(c -> String.format(Locale.ROOT, "%.2f", c)).collect(Collectors.joining(", ")),
                    p.peakHeapBytes().stream().map(b -> String.valueOf(b >> 20)).collect(Collectors.joining(", ")),
                    maxHeap / 1024.0 / ((double) p.tables() / p.instances()),
                    p.rounds(), p.cpuMillisPerRound(), p.emptyRounds(), p.cpuMillisPerEmptyRound(),
                    p.wallMillisPerEmptyRound()));
        }
        return out.toString();
    }
}
