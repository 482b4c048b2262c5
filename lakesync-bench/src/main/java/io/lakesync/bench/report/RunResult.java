package io.lakesync.bench.report;

import io.lakesync.bench.measure.LagTracker.LagStats;

/**
 * What one run of one contender measured.
 *
 * @param finished whether the contender finished before the deadline; otherwise the run is a DNF
 * @param note why it did not finish, or anything else worth knowing about the run; null if nothing
 * @param rows rows (log) or operations (primary key) the run had to sync, or wrote during a steady run
 * @param logicalBytes payload bytes of those rows (see {@code BenchRecord.logicalBytes})
 * @param wallSeconds from the start of the timed window (warm: the timed tables' release, or WARMED; cold
 *     backfills and many-tables: the contender's launch; steady: READY) to full sync (tiering) or DONE (bounds);
 *     for a DNF, until it was given up
 * @param startupSeconds from process start to READY
 * @param cpuSeconds CPU the contender process used in the timed window (a cold backfill's includes its start-up)
 * @param peakRssBytes the process's peak resident set size (VmHWM), -1 if unknown
 * @param peakHeapBytes the process's peak used heap (sampled every 20 ms), -1 if unknown
 * @param filesWritten data and changelog files in the Paimon table's bucket folders
 * @param lakeRows rows a Paimon read returned after the run, null if not checked
 * @param expectedLakeRows rows the lake must hold (log rows, or live keys), null if not checked
 * @param lag steady runs only: lag samples
 * @param startupCpuSeconds CPU the contender process used from its start to READY
 * @param warmUp warm mode: the warm-up between READY and the timed window; null for a cold run
 * @param machine how busy the whole machine was in the timed window; null if unknown
 * @param jitCpuSeconds CPU the contender's JIT compiler threads used in the timed window (part of
 *     {@code cpuSeconds}): what compiling still cost it there; null if unknown
 */
public record RunResult(
        String contender,
        int run,
        boolean finished,
        String note,
        long rows,
        long logicalBytes,
        double wallSeconds,
        double startupSeconds,
        double cpuSeconds,
        long peakRssBytes,
        long peakHeapBytes,
        long filesWritten,
        Long lakeRows,
        Long expectedLakeRows,
        LagStats lag,
        double startupCpuSeconds,
        WarmUp warmUp,
        MachineLoad machine,
        Double jitCpuSeconds) {

    /**
     * What a warm run did before its timed window.
     *
     * @param wallSeconds from READY until the warm-up was synced (tiering: and checked, dropped, the timed tables
     *     released) or its bound run ended
     * @param cpuSeconds CPU the contender process used in that time
     */
    public record WarmUp(double wallSeconds, double cpuSeconds) {}

    /**
     * The whole machine in the timed window: the contender shares the cores with the Fluss cluster, which runs in
     * the benchmark's own process, so a run whose cores were all busy was bounded by the machine as a whole.
     *
     * @param busyCpuSeconds CPU time every process used (Linux {@code /proc/stat})
     * @param availableCpuSeconds cores × elapsed time
     * @param clusterCpuSeconds CPU time of the benchmark process: the embedded ZooKeeper, Fluss coordinator and
     *     tablet server, and the driver's polling
     */
    public record MachineLoad(double busyCpuSeconds, double availableCpuSeconds, double clusterCpuSeconds) {}

    /** A run whose contender never got going (failed or timed out before READY). */
    public static RunResult notStarted(String contender, int run, long rows, long logicalBytes, String why) {
        return new RunResult(contender, run, false, why, rows, logicalBytes, 0, 0, 0, -1, -1, 0, null, null, null, 0,
                null, null, null);
    }

    /** Whether the lake held exactly the expected rows (true when not checked). */
    public boolean lakeRowsMatch() {
        return lakeRows == null || expectedLakeRows == null || lakeRows.equals(expectedLakeRows);
    }
}
