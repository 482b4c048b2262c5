package io.lakesync.bench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** Reduces runs to {@link ContenderSummary} lines, adds the bound line and the ratios against contender A. */
public final class Summaries {

    public static final String A = "A";
    public static final String READ_BOUND = "read-bound";
    public static final String WRITE_BOUND = "write-bound";
    public static final String BOUND = "bound";
    private static final double MB = 1024.0 * 1024.0;

    private Summaries() {}

    /**
     * One summary per contender of {@code descriptions} (label to description, in report order), then the bound
     * line when both bounds finished, each with its ratios against A.
     */
    public static List<ContenderSummary> summarize(Map<String, String> descriptions, List<RunResult> runs) {
        List<ContenderSummary> lines = new ArrayList<>();
        descriptions.forEach((label, description) ->
                lines.add(summarize(label, description, runs.stream().filter(r -> r.contender().equals(label)).toList())));
        ContenderSummary read = find(lines, READ_BOUND);
        ContenderSummary write = find(lines, WRITE_BOUND);
        if (read != null && write != null && read.anyFinished() && write.anyFinished()) {
            lines.add(bound(read, write));
        }
        ContenderSummary a = find(lines, A);
        return lines.stream().map(line -> withRatios(line, a)).toList();
    }

    static ContenderSummary summarize(String label, String description, List<RunResult> runs) {
        List<RunResult> finished = runs.stream().filter(RunResult::finished).toList();
        if (finished.isEmpty()) {
            return new ContenderSummary(label, description, runs.size(), 0, null, null, null, null, null, null,
                    maxMb(runs, RunResult::peakRssBytes), maxMb(runs, RunResult::peakHeapBytes), null,
                    null, null, null, null, null, null, null, null, null, null, runs);
        }
        double wall = median(finished, RunResult::wallSeconds);
        long rows = finished.get(0).rows();
        long bytes = finished.get(0).logicalBytes();
        boolean steady = finished.get(0).lag() != null;
        boolean checked = finished.stream().anyMatch(r -> r.lakeRows() != null);
        List<RunResult> warmed = finished.stream().filter(r -> r.warmUp() != null).toList();
        List<RunResult> jitMeasured = finished.stream().filter(r -> r.jitCpuSeconds() != null).toList();
        return new ContenderSummary(
                label,
                description,
                runs.size(),
                finished.size(),
                wall,
                finished.stream().mapToDouble(RunResult::wallSeconds).min().orElseThrow(),
                finished.stream().mapToDouble(RunResult::wallSeconds).max().orElseThrow(),
                wall > 0 ? rows / wall : null,
                wall > 0 ? bytes / MB / wall : null,
                rows > 0 ? median(finished, r -> r.cpuSeconds() * 1_000_000.0 / r.rows()) : null,
                maxMb(finished, RunResult::peakRssBytes),
                maxMb(finished, RunResult::peakHeapBytes),
                median(finished, RunResult::filesWritten),
                steady ? median(finished, r -> r.lag().p50Seconds()) : null,
                steady ? median(finished, r -> r.lag().p99Seconds()) : null,
                steady ? finished.stream().mapToDouble(r -> r.lag().maxSeconds()).max().orElseThrow() : null,
                checked ? finished.stream().allMatch(RunResult::lakeRowsMatch) : null,
                null,
                null,
                median(finished, RunResult::startupCpuSeconds),
                warmed.isEmpty() ? null : median(warmed, r -> r.warmUp().wallSeconds()),
                warmed.isEmpty() ? null : median(warmed, r -> r.warmUp().cpuSeconds()),
                jitMeasured.isEmpty() ? null : median(jitMeasured, RunResult::jitCpuSeconds),
                runs);
    }

    /** The best any tiering can do: the slower of reading alone and writing alone. */
    static ContenderSummary bound(ContenderSummary read, ContenderSummary write) {
        ContenderSummary slower =
                read.medianWallSeconds() >= write.medianWallSeconds() ? read : write;
        return new ContenderSummary(
                BOUND,
                "slower of read-bound and write-bound (" + slower.contender() + "): the best any tiering can do",
                0, 0, slower.medianWallSeconds(), null, null, slower.rowsPerSecond(), slower.mbPerSecond(),
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, List.of());
    }

    static ContenderSummary withRatios(ContenderSummary line, ContenderSummary a) {
        if (a == null || !a.anyFinished() || !line.anyFinished() && !line.contender().equals(BOUND)) {
            return line;
        }
        return new ContenderSummary(
                line.contender(), line.description(), line.runs(), line.finishedRuns(), line.medianWallSeconds(),
                line.minWallSeconds(), line.maxWallSeconds(), line.rowsPerSecond(), line.mbPerSecond(),
                line.cpuSecondsPerMillionRows(), line.peakRssMb(), line.peakHeapMb(), line.filesWritten(),
                line.lagP50Seconds(), line.lagP99Seconds(), line.lagMaxSeconds(), line.lakeRowsOk(),
                ratio(line.rowsPerSecond(), a.rowsPerSecond()),
                ratio(line.cpuSecondsPerMillionRows(), a.cpuSecondsPerMillionRows()),
                line.startupCpuSeconds(),
                line.warmUpWallSeconds(),
                line.warmUpCpuSeconds(),
                line.jitCpuSeconds(),
                line.runResults());
    }

    private static Double ratio(Double value, Double reference) {
        return value == null || reference == null || reference == 0 ? null : value / reference;
    }

    private static ContenderSummary find(List<ContenderSummary> lines, String label) {
        return lines.stream().filter(l -> l.contender().equals(label)).findFirst().orElse(null);
    }

    static double median(List<RunResult> runs, ToDoubleFunction<RunResult> figure) {
        double[] values = runs.stream().mapToDouble(figure).sorted().toArray();
        int mid = values.length / 2;
        return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }

    private static Double maxMb(List<RunResult> runs, java.util.function.ToLongFunction<RunResult> bytes) {
        return runs.stream()
                .mapToLong(bytes)
                .filter(b -> b >= 0)
                .boxed()
                .max(Comparator.naturalOrder())
                .map(b -> b / MB)
                .orElse(null);
    }
}
