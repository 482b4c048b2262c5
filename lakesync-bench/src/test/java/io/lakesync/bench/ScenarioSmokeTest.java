package io.lakesync.bench;

import static io.lakesync.bench.BenchSmokeTest.line;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.bench.contender.Contender;
import io.lakesync.bench.report.BenchReport;
import io.lakesync.bench.report.ContenderSummary;
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
 * The many-tables (warm mode: A, B and a bound each warm up in their JVM first, in two waves) and steady scenarios
 * end to end, tiny: a class of its own so it runs beside {@link BenchSmokeTest}.
 */
@ClusterTest
class ScenarioSmokeTest {

    @TempDir Path dir;

    @Test
    void manyTablesWarmAndSteadyRunEndToEnd() throws Exception {
        List<String> progress = new CopyOnWriteArrayList<>();
        BenchReport many = BenchMain.run(
                settings(ScenarioKind.MANY_TABLES, 50, 3, Duration.ofSeconds(3), new BenchSettings.Warm(40, 1, 2),
                        Contender.A, Contender.B, Contender.WRITE_BOUND),
                line -> {
                    progress.add(line);
                    System.out.println(line);
                }, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        for (String tiering : List.of("A", "B")) {
            RunResult run = line(many, tiering).runResults().get(0);
            assertThat(run.finished()).as("%s synced all tables after its warm-up: %s", tiering, run.note()).isTrue();
            assertThat(run.lakeRows()).as("%s: the timed tables' rows, not the warm-up's", tiering).isEqualTo(150);
            assertThat(run.filesWritten()).isGreaterThanOrEqualTo(3);
            assertThat(run.startupCpuSeconds()).isPositive();
            assertThat(run.warmUp()).as("%s warmed up", tiering).isNotNull();
            assertThat(run.warmUp().cpuSeconds()).isPositive();
            // Part of the process's CPU, read just after it (hence the slack of a few clock ticks).
            assertThat(run.jitCpuSeconds()).as("%s JIT CPU in the timed window", tiering)
                    .isBetween(0.0, run.cpuSeconds() + 0.1);
        }
        // Before each release the runner checked the wave's lake and, last, that no timed table was tiered yet.
        assertThat(progress.stream().filter(l -> l.contains("warm-up wave 1 of 2 synced in")))
                .hasSize(2)
                .allMatch(l -> l.endsWith("40 lake rows ok"));
        assertThat(progress.stream().filter(l -> l.contains("warm-up synced in")))
                .hasSize(2)
                .allMatch(l -> l.contains("40 lake rows ok; releasing the timed tables"));
        RunResult writeBound = line(many, "write-bound").runResults().get(0);
        assertThat(writeBound.finished()).as("write bound over 3 tables: %s", writeBound.note()).isTrue();
        assertThat(writeBound.warmUp()).as("the bound warmed up over its own tables").isNotNull();
        assertThat(writeBound.filesWritten()).as("a file in each timed scratch table").isGreaterThanOrEqualTo(3);
        assertThat(MarkdownReport.render(many)).contains("Warm-up CPU s");

        BenchReport steady = BenchMain.run(settings(ScenarioKind.STEADY, 1, 1, Duration.ofSeconds(2), null, Contender.A),
                System.out::println, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        ContenderSummary a = line(steady, "A");
        assertThat(a.finishedRuns()).isEqualTo(1);
        assertThat(a.runResults().get(0).rows()).as("rows written at the fixed rate").isPositive();
        assertThat(a.lagP50Seconds()).isNotNull();
        assertThat(a.lagMaxSeconds()).isGreaterThanOrEqualTo(a.lagP99Seconds());
        assertThat(MarkdownReport.render(steady)).contains("Lag p99 s");
    }

    /** One run of each contender, tiny. */
    private BenchSettings settings(ScenarioKind scenario, long rows, int tables, Duration freshness,
            BenchSettings.Warm warm, Contender... contenders) {
        return new BenchSettings(scenario, rows, 1, List.of(contenders), 1, freshness, tables, 200,
                Duration.ofSeconds(8), Duration.ofSeconds(2), warm, Duration.ofSeconds(60), "512m", 7,
                Duration.ofSeconds(30), 0.8, null, false, dir.resolve(scenario.label() + ".json"));
    }
}
