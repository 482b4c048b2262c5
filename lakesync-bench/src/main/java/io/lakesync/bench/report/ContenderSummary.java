package io.lakesync.bench.report;

import java.util.List;

/**
 * One line of the report: a contender's runs reduced to medians (wall, CPU, files), min–max (wall) and
 * maxima (memory). Figures are null where no run finished or the figure does not apply.
 *
 * @param rowsPerSecond rows / median wall
 * @param mbPerSecond logical MB (2^20 bytes) / median wall
 * @param cpuSecondsPerMillionRows median over finished runs of CPU seconds × 10^6 / rows
 * @param throughputVsA rowsPerSecond / contender A's rowsPerSecond
 * @param cpuPerRowVsA cpuSecondsPerMillionRows / contender A's
 * @param lakeRowsOk whether every finished run left exactly the expected rows in the lake, null if unchecked
 * @param startupCpuSeconds median CPU seconds from process start to READY
 * @param warmUpCpuSeconds warm mode: median CPU seconds of the warm-up (READY until the timed window)
 * @param warmUpWallSeconds warm mode: median wall seconds of the warm-up
 * @param jitCpuSeconds median CPU seconds the JIT compiler threads used in the timed window (part of the CPU)
 */
public record ContenderSummary(
        String contender,
        String description,
        int runs,
        int finishedRuns,
        Double medianWallSeconds,
        Double minWallSeconds,
        Double maxWallSeconds,
        Double rowsPerSecond,
        Double mbPerSecond,
        Double cpuSecondsPerMillionRows,
        Double peakRssMb,
        Double peakHeapMb,
        Double filesWritten,
        Double lagP50Seconds,
        Double lagP99Seconds,
        Double lagMaxSeconds,
        Boolean lakeRowsOk,
        Double throughputVsA,
        Double cpuPerRowVsA,
        Double startupCpuSeconds,
        Double warmUpWallSeconds,
        Double warmUpCpuSeconds,
        Double jitCpuSeconds,
        List<RunResult> runResults) {

    public boolean anyFinished() {
        return finishedRuns > 0;
    }
}
