package io.lakesync.bench.report;

import static io.lakesync.bench.report.SummariesTest.dnf;
import static io.lakesync.bench.report.SummariesTest.labels;
import static io.lakesync.bench.report.SummariesTest.run;
import static io.lakesync.bench.report.SummariesTest.warm;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkdownReportTest {

    @TempDir Path dir;

    private static BenchReport report(List<RunResult> runs, String... labels) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("rows", 1_000_000);
        return new BenchReport("backfill-log", "2026-01-01T00:00:00Z", settings, Map.of("cores", 2),
                Summaries.summarize(labels(labels), runs));
    }

    @Test
    void oneLinePerContenderWithDnfAndRatios() {
        String md = MarkdownReport.render(report(
                List.of(run("A", 1, 10, 20), dnf("B", 1), run("read-bound", 1, 2, 2), run("write-bound", 1, 5, 5)),
                "A", "B", "read-bound", "write-bound"));

        assertThat(md).startsWith("### backfill-log — rows 1000000\n");
        assertThat(md).contains("| A | 1/1 | 10.00 | 10.00–10.00 | 100,000 | 10.0 | 20.00 | – | 500 | 200 | 8 | 1.00× | 1.00× | ok |");
        assertThat(md).contains("| B | 0/1 | DNF | DNF | DNF | DNF | – | – | 300 | 100 | – | – | – | – |");
        assertThat(md).contains("| bound | – | 5.00 | – | 200,000 | 20.0 |");
        assertThat(md).contains("- **B**: B description — run 1: not synced within 10min");
        assertThat(md).doesNotContain("Lag p50", "Warm-up");
        assertThat(md).contains("| Lake rows | Start-up CPU s |", "| ok | 2.5 |");
    }

    @Test
    void warmRunsShowTheirWarmUpBesideTheTimedFigures() {
        String md = MarkdownReport.render(report(List.of(warm("A", 1, 10, 20, 30)), "A"));

        assertThat(md).contains("| Lake rows | Start-up CPU s | Warm-up wall s | Warm-up CPU s |");
        assertThat(md).contains("| 20.00 | – | 500 | 200 | 8 | 1.00× | 1.00× | ok | 2.5 | 4.0 | 30.0 |");
    }

    @Test
    void showsTheMedianJitCpuOfTheTimedWindows() {
        String md = MarkdownReport.render(report(
                List.of(withJit(run("A", 1, 10, 20), 0.5), withJit(run("A", 2, 11, 20), 0.9),
                        withJit(run("A", 3, 12, 20), 0.7), withJit(dnf("A", 4), 9.0)),
                "A"));

        assertThat(md).contains("| CPU s / M rows | JIT CPU s | Peak RSS MB |");
        assertThat(md).as("the DNF's figure left out").contains("| 20.00 | 0.7 | 500 |");
    }

    private static RunResult withJit(RunResult r, double jitCpuSeconds) {
        return new RunResult(r.contender(), r.run(), r.finished(), r.note(), r.rows(), r.logicalBytes(),
                r.wallSeconds(), r.startupSeconds(), r.cpuSeconds(), r.peakRssBytes(), r.peakHeapBytes(),
                r.filesWritten(), r.lakeRows(), r.expectedLakeRows(), r.lag(), r.startupCpuSeconds(), r.warmUp(),
                r.machine(), jitCpuSeconds);
    }

    @Test
    void jsonHoldsTheSameFigures() throws Exception {
        BenchReport report = report(List.of(run("A", 1, 10, 20), warm("A", 2, 12, 20, 30)), "A");
        Path file = dir.resolve("nested/out.json");
        JsonReport.write(report, file);
        BenchReport read = JsonReport.read(file);
        assertThat(read.contenders().get(0).medianWallSeconds()).isEqualTo(11.0);
        assertThat(read.contenders().get(0).runResults()).hasSize(2);
        assertThat(read.contenders().get(0).runResults().get(1).warmUp()).isEqualTo(new RunResult.WarmUp(4.0, 30.0));
        assertThat(read.contenders().get(0).warmUpCpuSeconds()).isEqualTo(30.0);
        assertThat(read.settings()).containsEntry("rows", 1_000_000);
    }
}
