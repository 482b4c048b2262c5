package io.lakesync.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lakesync.bench.measure.LagTracker.LagStats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SummariesTest {

    static final long ROWS = 1_000_000;
    static final long BYTES = 100L * 1024 * 1024;

    static RunResult run(String contender, int run, double wall, double cpu) {
        return new RunResult(contender, run, true, null, ROWS, BYTES, wall, 1.0, cpu, 500L << 20, 200L << 20, 8,
                ROWS, ROWS, null, 2.5, null, null, null);
    }

    /** A finished warm run: {@code warmUpCpu} CPU seconds before the timed window. */
    static RunResult warm(String contender, int run, double wall, double cpu, double warmUpCpu) {
        return new RunResult(contender, run, true, null, ROWS, BYTES, wall, 1.0, cpu, 500L << 20, 200L << 20, 8,
                ROWS, ROWS, null, 2.5, new RunResult.WarmUp(4.0, warmUpCpu), null, null);
    }

    static RunResult dnf(String contender, int run) {
        return new RunResult(contender, run, false, "not synced within 10min", ROWS, BYTES, 600, 0.5, 90,
                300L << 20, 100L << 20, 0, null, null, null, 2.0, null, null, null);
    }

    static Map<String, String> labels(String... labels) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String label : labels) {
            map.put(label, label + " description");
        }
        return map;
    }

    @Test
    void medianMinMaxRatesAndRatiosAgainstA() {
        List<ContenderSummary> lines = Summaries.summarize(labels("A", "B"), List.of(
                run("A", 1, 10, 20), run("B", 1, 4, 6),
                run("A", 2, 12, 22), run("B", 2, 5, 8),
                run("A", 3, 11, 30), run("B", 3, 3, 7)));

        ContenderSummary a = lines.get(0);
        assertThat(a.medianWallSeconds()).isEqualTo(11.0);
        assertThat(a.minWallSeconds()).isEqualTo(10.0);
        assertThat(a.maxWallSeconds()).isEqualTo(12.0);
        assertThat(a.rowsPerSecond()).isCloseTo(ROWS / 11.0, within(1e-6));
        assertThat(a.mbPerSecond()).isCloseTo(100 / 11.0, within(1e-6));
        assertThat(a.cpuSecondsPerMillionRows()).isEqualTo(22.0);
        assertThat(a.peakRssMb()).isEqualTo(500.0);
        assertThat(a.lakeRowsOk()).isTrue();
        assertThat(a.throughputVsA()).isEqualTo(1.0);

        ContenderSummary b = lines.get(1);
        assertThat(b.medianWallSeconds()).isEqualTo(4.0);
        assertThat(b.throughputVsA()).isCloseTo(11.0 / 4.0, within(1e-9));
        assertThat(b.cpuPerRowVsA()).isCloseTo(7.0 / 22.0, within(1e-9));
    }

    @Test
    void aContenderWithoutAFinishedRunHasNoFiguresButKeepsItsRuns() {
        List<ContenderSummary> lines = Summaries.summarize(labels("A", "B"),
                List.of(run("A", 1, 10, 20), dnf("B", 1), run("A", 2, 10, 20), dnf("B", 2)));
        ContenderSummary b = lines.get(1);
        assertThat(b.anyFinished()).isFalse();
        assertThat(b.runs()).isEqualTo(2);
        assertThat(b.medianWallSeconds()).isNull();
        assertThat(b.throughputVsA()).isNull();
        assertThat(b.runResults()).hasSize(2);
        assertThat(b.peakRssMb()).as("memory is still reported").isEqualTo(300.0);
    }

    @Test
    void partlyFinishedContenderIsSummarisedOverItsFinishedRuns() {
        ContenderSummary b = Summaries.summarize(labels("B"), List.of(run("B", 1, 4, 6), dnf("B", 2))).get(0);
        assertThat(b.finishedRuns()).isEqualTo(1);
        assertThat(b.medianWallSeconds()).isEqualTo(4.0);
    }

    @Test
    void boundIsTheSlowerOfReadingAndWriting() {
        List<ContenderSummary> lines = Summaries.summarize(labels("A", "read-bound", "write-bound"), List.of(
                run("A", 1, 10, 20), run("read-bound", 1, 2, 2), run("write-bound", 1, 5, 5)));
        ContenderSummary bound = lines.get(3);
        assertThat(bound.contender()).isEqualTo(Summaries.BOUND);
        assertThat(bound.medianWallSeconds()).isEqualTo(5.0);
        assertThat(bound.throughputVsA()).isCloseTo(2.0, within(1e-9));
        assertThat(bound.description()).contains("write-bound");
    }

    @Test
    void noBoundWhenABoundDidNotFinish() {
        List<ContenderSummary> lines = Summaries.summarize(labels("read-bound", "write-bound"),
                List.of(run("read-bound", 1, 2, 2), dnf("write-bound", 1)));
        assertThat(lines).extracting(ContenderSummary::contender).containsExactly("read-bound", "write-bound");
    }

    @Test
    void steadyRunsReportLagAndAWrongLakeCountIsFlagged() {
        RunResult steady = new RunResult("A", 1, true, null, ROWS, BYTES, 60, 1, 10, 1, 1, 3, null, null,
                new LagStats(60, 20, 35, 40), 2, null, null, null);
        RunResult wrong = new RunResult("B", 1, true, null, ROWS, BYTES, 5, 1, 10, 1, 1, 3, ROWS - 1, ROWS, null, 2,
                null, null, null);
        List<ContenderSummary> lines = Summaries.summarize(labels("A", "B"), List.of(steady, wrong));
        assertThat(lines.get(0).lagP99Seconds()).isEqualTo(35.0);
        assertThat(lines.get(0).lagMaxSeconds()).isEqualTo(40.0);
        assertThat(lines.get(0).lakeRowsOk()).isNull();
        assertThat(lines.get(1).lakeRowsOk()).isFalse();
    }

    @Test
    void warmRunsReportStartUpAndWarmUpApartFromTheTimedWindow() {
        List<ContenderSummary> lines = Summaries.summarize(labels("A", "B"), List.of(
                warm("A", 1, 10, 20, 30), warm("A", 2, 12, 22, 50), warm("A", 3, 11, 24, 40),
                run("B", 1, 4, 6)));
        ContenderSummary a = lines.get(0);
        assertThat(a.cpuSecondsPerMillionRows()).as("timed window only").isEqualTo(22.0);
        assertThat(a.startupCpuSeconds()).isEqualTo(2.5);
        assertThat(a.warmUpCpuSeconds()).isEqualTo(40.0);
        assertThat(a.warmUpWallSeconds()).isEqualTo(4.0);
        assertThat(lines.get(1).warmUpCpuSeconds()).as("a cold run has no warm-up").isNull();
    }

    @Test
    void theMachineLineGivesMediansOfTheFinishedRunsTimedWindows() {
        List<RunResult> runs = List.of(
                withMachine(run("B", 1, 10, 5), new RunResult.MachineLoad(19, 20, 6)),
                withMachine(run("B", 2, 11, 5), new RunResult.MachineLoad(15, 20, 4)),
                withMachine(run("B", 3, 12, 5), new RunResult.MachineLoad(10, 20, 2)),
                withMachine(dnf("B", 4), new RunResult.MachineLoad(1, 1200, 1)));

        ContenderSummary b = Summaries.summarize(labels("B"), runs).get(0);

        assertThat(MarkdownReport.machineLoad(b))
                .isEqualTo(" — machine in the timed window (median): 75% busy, 15.0 of 20.0 CPU s, cluster 4.0 CPU s");
        assertThat(MarkdownReport.machineLoad(Summaries.summarize(labels("B"), List.of(run("B", 1, 10, 5))).get(0)))
                .as("not measured").isEmpty();
    }

    private static RunResult withMachine(RunResult r, RunResult.MachineLoad machine) {
        return new RunResult(r.contender(), r.run(), r.finished(), r.note(), r.rows(), r.logicalBytes(),
                r.wallSeconds(), r.startupSeconds(), r.cpuSeconds(), r.peakRssBytes(), r.peakHeapBytes(),
                r.filesWritten(), r.lakeRows(), r.expectedLakeRows(), r.lag(), r.startupCpuSeconds(), r.warmUp(),
                machine, r.jitCpuSeconds());
    }
}
