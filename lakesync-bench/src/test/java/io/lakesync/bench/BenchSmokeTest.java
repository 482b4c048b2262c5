package io.lakesync.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.bench.contender.Contender;
import io.lakesync.bench.report.BenchReport;
import io.lakesync.bench.report.ContenderSummary;
import io.lakesync.bench.report.JsonReport;
import io.lakesync.bench.report.MarkdownReport;
import io.lakesync.bench.report.RunResult;
import io.lakesync.local.ClusterTest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole harness on a tiny backlog, so it cannot rot: a real cluster, the real Flink tiering job (A), the
 * lakesync engine (B, which may not finish yet), and both bounds, each in its own JVM. Asserts completeness
 * and correctness of the report, never speed. The other scenarios run in {@link ScenarioSmokeTest}, beside it.
 */
@ClusterTest
class BenchSmokeTest {

    private static final long ROWS = 2_000;

    @TempDir Path dir;

    @Test
    void backfillLogProducesACompleteReportAndATieringThatLandsEveryRow() throws Exception {
        Path json = dir.resolve("out/bench.json");
        BenchSettings settings = new BenchSettings(
                ScenarioKind.BACKFILL_LOG,
                ROWS,
                1,
                List.of(Contender.A, Contender.B, Contender.READ_BOUND, Contender.WRITE_BOUND),
                2,
                Duration.ofMinutes(10),
                1,
                1,
                Duration.ofSeconds(1),
                Duration.ZERO,
                null,
                Duration.ofSeconds(90),
                "512m",
                7,
                Duration.ofSeconds(30),
                0.8,
                dir.resolve("data"),
                false,
                json);
        List<String> progress = new CopyOnWriteArrayList<>();
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();

        BenchReport report = BenchMain.run(settings, line -> {
            progress.add(line);
            System.out.println(line);
        }, new PrintStream(stdout, true, StandardCharsets.UTF_8));

        assertThat(report.contenders()).extracting(ContenderSummary::contender)
                .containsExactly("A", "B", "read-bound", "write-bound", "bound");
        ContenderSummary a = line(report, "A");
        assertThat(a.finishedRuns()).as("A finished; progress: %s", progress).isEqualTo(1);
        RunResult aRun = a.runResults().get(0);
        assertThat(aRun.expectedLakeRows()).isEqualTo(ROWS);
        assertThat(aRun.lakeRows()).as("rows read back from A's Paimon table").isEqualTo(ROWS);
        assertThat(aRun.filesWritten()).isPositive();
        assertThat(aRun.cpuSeconds()).isPositive();
        assertThat(aRun.peakRssBytes()).isPositive();
        assertThat(aRun.peakHeapBytes()).isPositive();
        assertThat(aRun.machine()).as("the machine's load in A's timed window").isNotNull();
        assertThat(aRun.machine().clusterCpuSeconds()).as("the cluster answered A's reads").isPositive();
        assertThat(aRun.machine().busyCpuSeconds())
                .isGreaterThanOrEqualTo(aRun.machine().clusterCpuSeconds() * 0.9)
                .isLessThanOrEqualTo(aRun.machine().availableCpuSeconds());
        assertThat(a.throughputVsA()).isEqualTo(1.0);

        ContenderSummary b = line(report, "B");
        RunResult bRun = b.runResults().get(0);
        if (bRun.finished()) {
            assertThat(bRun.lakeRows()).isEqualTo(ROWS);
        } else {
            assertThat(bRun.note()).isNotBlank();
        }

        assertThat(line(report, "read-bound").finishedRuns()).isEqualTo(1);
        assertThat(line(report, "write-bound").finishedRuns()).isEqualTo(1);
        assertThat(line(report, "write-bound").filesWritten()).isPositive();
        assertThat(line(report, "bound").rowsPerSecond()).isPositive();

        String markdown = stdout.toString(StandardCharsets.UTF_8);
        assertThat(markdown).isEqualTo(MarkdownReport.render(report) + System.lineSeparator());
        assertThat(markdown).contains("| A | 1/1 |", "| read-bound | 1/1 |", "| write-bound | 1/1 |", "| bound |");
        assertThat(markdown).contains(bRun.finished() ? "| B | 1/1 |" : "| B | 0/1 | DNF |");

        BenchReport fromJson = JsonReport.read(json);
        assertThat(fromJson.contenders()).extracting(ContenderSummary::contender)
                .containsExactlyElementsOf(report.contenders().stream().map(ContenderSummary::contender).toList());
        assertThat(fromJson.contenders().get(0).medianWallSeconds()).isEqualTo(a.medianWallSeconds());
    }

    static ContenderSummary line(BenchReport report, String contender) {
        return report.contenders().stream().filter(c -> c.contender().equals(contender)).findFirst().orElseThrow();
    }
}
