package io.lakesync.bench;

import static io.lakesync.bench.BenchSmokeTest.line;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.bench.contender.Contender;
import io.lakesync.bench.report.BenchReport;
import io.lakesync.bench.report.ContenderSummary;
import io.lakesync.bench.report.MarkdownReport;
import io.lakesync.bench.report.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The many-tables and steady scenarios end to end, tiny: a class of its own so it runs beside {@link BenchSmokeTest}. */
class ScenarioSmokeTest {

    @TempDir Path dir;

    @Test
    void manyTablesAndSteadyRunEndToEnd() throws Exception {
        BenchReport many = BenchMain.run(
                settings(ScenarioKind.MANY_TABLES, 50, 3, Duration.ofMinutes(10), Contender.A, Contender.WRITE_BOUND),
                System.out::println, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        RunResult manyRun = line(many, "A").runResults().get(0);
        assertThat(manyRun.finished()).as("A synced all tables: %s", manyRun.note()).isTrue();
        assertThat(manyRun.lakeRows()).isEqualTo(150);
        assertThat(manyRun.filesWritten()).isGreaterThanOrEqualTo(3);
        RunResult writeBound = line(many, "write-bound").runResults().get(0);
        assertThat(writeBound.finished()).as("write bound over 3 tables: %s", writeBound.note()).isTrue();
        assertThat(writeBound.filesWritten()).as("a file in each scratch table").isGreaterThanOrEqualTo(3);

        BenchReport steady = BenchMain.run(settings(ScenarioKind.STEADY, 1, 1, Duration.ofSeconds(2), Contender.A),
                System.out::println, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        ContenderSummary a = line(steady, "A");
        assertThat(a.finishedRuns()).isEqualTo(1);
        assertThat(a.runResults().get(0).rows()).as("rows written at the fixed rate").isPositive();
        assertThat(a.lagP50Seconds()).isNotNull();
        assertThat(a.lagMaxSeconds()).isGreaterThanOrEqualTo(a.lagP99Seconds());
        assertThat(MarkdownReport.render(steady)).contains("Lag p99 s");
    }

    /** One run of each contender, tiny. */
    private BenchSettings settings(
            ScenarioKind scenario, long rows, int tables, Duration freshness, Contender... contenders) {
        return new BenchSettings(scenario, rows, 1, List.of(contenders), 1, freshness, tables, 200,
                Duration.ofSeconds(8), Duration.ofSeconds(2), Duration.ofSeconds(60), "512m", 7, Duration.ofSeconds(30), 0.8, null, false,
                dir.resolve(scenario.label() + ".json"));
    }
}
