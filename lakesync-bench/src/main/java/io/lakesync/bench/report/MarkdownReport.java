package io.lakesync.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The report as a Markdown table, one line per contender, then the contenders' descriptions. */
public final class MarkdownReport {

    private static final String NONE = "–";
    private static final String DNF = "DNF";

    private MarkdownReport() {}

    public static String render(BenchReport report) {
        boolean steady = report.contenders().stream().anyMatch(c -> c.lagP50Seconds() != null);
        boolean warm = report.contenders().stream().anyMatch(c -> c.warmUpCpuSeconds() != null);
        List<String> header = new ArrayList<>(List.of(
                "Contender", "Runs ok", "Wall s (median)", "Wall min–max s", "Rows/s", "MB/s", "CPU s / M rows",
                "JIT CPU s", "Peak RSS MB", "Peak heap MB", "Files", "Rows/s ÷ A", "CPU/row ÷ A", "Lake rows"));
        if (steady) {
            header.addAll(List.of("Lag p50 s", "Lag p99 s", "Lag max s"));
        }
        header.add("Start-up CPU s");
        if (warm) {
            header.addAll(List.of("Warm-up wall s", "Warm-up CPU s"));
        }
        StringBuilder md = new StringBuilder();
        md.append("### ").append(report.scenario()).append(" — ").append(settingsLine(report.settings()))
                .append("\n\n");
        row(md, header);
        row(md, header.stream().map(h -> "---").toList());
        for (ContenderSummary c : report.contenders()) {
            row(md, cells(c, steady, warm));
        }
        md.append('\n');
        for (ContenderSummary c : report.contenders()) {
            md.append("- **").append(c.contender()).append("**: ").append(c.description());
            c.runResults().stream().filter(r -> r.note() != null).forEach(r ->
                    md.append(" — run ").append(r.run()).append(": ").append(r.note()));
            md.append(machineLoad(c));
            md.append('\n');
        }
        return md.toString();
    }

    /**
     * The machine in the timed windows of {@code c}'s finished runs, medians: how much of the cores every process
     * used, and the Fluss cluster's share (it runs in the benchmark's process). Empty where not measured.
     */
    static String machineLoad(ContenderSummary c) {
        List<RunResult> measured = c.runResults().stream()
                .filter(r -> r.finished() && r.machine() != null && r.machine().availableCpuSeconds() > 0)
                .toList();
        if (measured.isEmpty()) {
            return "";
        }
        return String.format(" — machine in the timed window (median): %.0f%% busy, %.1f of %.1f CPU s, cluster %.1f CPU s",
                100 * Summaries.median(measured, r -> r.machine().busyCpuSeconds() / r.machine().availableCpuSeconds()),
                Summaries.median(measured, r -> r.machine().busyCpuSeconds()),
                Summaries.median(measured, r -> r.machine().availableCpuSeconds()),
                Summaries.median(measured, r -> r.machine().clusterCpuSeconds()));
    }

    private static List<String> cells(ContenderSummary c, boolean steady, boolean warm) {
        boolean bound = c.contender().equals(Summaries.BOUND);
        boolean dnf = !bound && !c.anyFinished();
        List<String> cells = new ArrayList<>();
        cells.add(c.contender());
        cells.add(bound ? NONE : c.finishedRuns() + "/" + c.runs());
        cells.add(dnf ? DNF : num(c.medianWallSeconds(), 2));
        cells.add(dnf ? DNF : range(c.minWallSeconds(), c.maxWallSeconds()));
        cells.add(dnf ? DNF : grouped(c.rowsPerSecond()));
        cells.add(dnf ? DNF : num(c.mbPerSecond(), 1));
        cells.add(num(c.cpuSecondsPerMillionRows(), 2));
        cells.add(num(c.jitCpuSeconds(), 1));
        cells.add(num(c.peakRssMb(), 0));
        cells.add(num(c.peakHeapMb(), 0));
        cells.add(num(c.filesWritten(), 0));
        cells.add(ratio(c.throughputVsA()));
        cells.add(ratio(c.cpuPerRowVsA()));
        cells.add(c.lakeRowsOk() == null ? NONE : c.lakeRowsOk() ? "ok" : "MISMATCH");
        if (steady) {
            cells.add(num(c.lagP50Seconds(), 1));
            cells.add(num(c.lagP99Seconds(), 1));
            cells.add(num(c.lagMaxSeconds(), 1));
        }
        cells.add(num(c.startupCpuSeconds(), 1));
        if (warm) {
            cells.add(num(c.warmUpWallSeconds(), 1));
            cells.add(num(c.warmUpCpuSeconds(), 1));
        }
        return cells;
    }

    private static String settingsLine(Map<String, Object> settings) {
        List<String> parts = new ArrayList<>();
        settings.forEach((k, v) -> parts.add(k + " " + v));
        return String.join(", ", parts);
    }

    private static void row(StringBuilder md, List<String> cells) {
        md.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }

    private static String num(Double value, int decimals) {
        return value == null ? NONE : String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    private static String grouped(Double value) {
        return num(value, 0);
    }

    private static String range(Double min, Double max) {
        return min == null ? NONE : num(min, 2) + "–" + num(max, 2);
    }

    private static String ratio(Double value) {
        return value == null ? NONE : String.format(Locale.ROOT, "%.2f×", value);
    }
}
