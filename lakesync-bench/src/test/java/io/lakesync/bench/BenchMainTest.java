package io.lakesync.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.bench.contender.Contender;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BenchMainTest {

    @TempDir Path dir;

    private static BenchSettings parse(String... args) {
        BenchMain main = new BenchMain();
        new CommandLine(main).parseArgs(args);
        return main.settings();
    }

    @Test
    void scenarioDefaultsApplyUnlessGiven() {
        BenchSettings log = parse("--scenario", "backfill-log");
        assertThat(log.rows()).isEqualTo(1_000_000);
        assertThat(log.buckets()).isEqualTo(8);
        assertThat(log.freshness()).as("warm: a parked table waits one freshness").isEqualTo(Duration.ofMinutes(1));
        assertThat(log.runs()).isEqualTo(3);
        assertThat(log.contenders()).containsExactly(
                Contender.A, Contender.B, Contender.A_DEFAULT, Contender.READ_BOUND, Contender.WRITE_BOUND);
        assertThat(log.out()).isEqualTo(Path.of("bench-backfill-log.json"));

        BenchSettings many = parse("--scenario", "many-tables", "--rows", "50", "--freshness", "1min");
        assertThat(many.tables()).isEqualTo(200);
        assertThat(many.rows()).isEqualTo(50);
        assertThat(many.freshness()).isEqualTo(Duration.ofMinutes(1));
        assertThat(parse("--scenario", "backfill-pk").freshness()).isEqualTo(Duration.ofSeconds(5));
        assertThat(parse("--scenario", "steady", "--contenders", "A,B").contenders())
                .containsExactly(Contender.A, Contender.B);
        assertThat(log.warm()).as("warm unless --cold").isEqualTo(new BenchSettings.Warm(250_000, 24, 2));
        assertThat(log.timedFromLaunch()).isFalse();
        BenchSettings cold = parse("--scenario", "backfill-log", "--cold");
        assertThat(cold.warm()).isNull();
        assertThat(cold.timedFromLaunch()).as("a cold run counts its start-up").isTrue();
        assertThat(cold.freshness()).isEqualTo(Duration.ofMinutes(10));
        assertThat(parse("--scenario", "steady").warm()).as("steady has its own --warm-up").isNull();
    }

    @Test
    void warmModeSizesItsWarmUpAndShortensTheLongDefaultFreshness() {
        BenchSettings log = parse("--scenario", "backfill-log", "--rows", "5000000");
        assertThat(log.warm()).as("six times the timed rows, a quarter of them per table")
                .isEqualTo(new BenchSettings.Warm(1_250_000, 24, 2));
        assertThat(parse("--scenario", "backfill-pk", "--rows", "4000").warm()).as("the timed operations, in four tables")
                .isEqualTo(new BenchSettings.Warm(1_000, 4, 2));
        assertThat(log.freshness()).as("a parked table waits one freshness").isEqualTo(Duration.ofMinutes(1));
        assertThat(parse("--scenario", "backfill-log", "--rows", "1000").warm().rowsPerTable())
                .isEqualTo(250);
        assertThat(parse("--scenario", "backfill-pk").freshness()).isEqualTo(Duration.ofSeconds(5));
        BenchSettings many = parse("--scenario", "many-tables", "--warm-tables", "20");
        assertThat(many.warm()).as("three waves unless told").isEqualTo(new BenchSettings.Warm(1_000, 20, 3));
        assertThat(parse("--scenario", "many-tables", "--tables", "10").warm().tables()).isEqualTo(10);
        assertThat(parse("--scenario", "many-tables").warm()).as("as many tables as the timed run")
                .isEqualTo(new BenchSettings.Warm(1_000, 200, 3));
        assertThat(many.reportSettings()).containsEntry("warm-up", "3 waves of 20 tables × 1,000 rows");
        BenchSettings oneWave = parse("--scenario", "many-tables", "--warm-tables", "20", "--warm-waves", "1");
        assertThat(oneWave.warm().waves()).isEqualTo(1);
        assertThat(oneWave.reportSettings()).containsEntry("warm-up", "20 tables × 1,000 rows");
    }

    @Test
    void badValuesNameTheirOption() {
        assertThatThrownBy(() -> parse("--scenario", "backfill")).hasMessageContaining("--scenario 'backfill'")
                .hasMessageContaining("backfill-log");
        assertThatThrownBy(() -> parse("--scenario", "backfill-log", "--rows", "0")).hasMessageContaining("--rows");
        assertThatThrownBy(() -> parse("--scenario", "backfill-log", "--runs", "0")).hasMessageContaining("--runs");
        assertThatThrownBy(() -> parse("--scenario", "backfill-log", "--heap", "lots"))
                .hasMessageContaining("--heap");
        assertThatThrownBy(() -> parse("--scenario", "backfill-log", "--timeout", "soon"))
                .hasMessageContaining("--timeout");
        assertThatThrownBy(() -> parse("--scenario", "backfill-log", "--contenders", "A,Z"))
                .hasMessageContaining("Unknown contender 'Z'");
        assertThatThrownBy(() -> parse("--scenario", "backfill-pk", "--pk-base-fraction", "0"))
                .hasMessageContaining("--pk-base-fraction");
        assertThatThrownBy(() -> parse("--scenario", "steady", "--rate", "0")).hasMessageContaining("--rate");
        assertThatThrownBy(() -> parse("--scenario", "steady", "--duration", "1min", "--warm-up", "1min"))
                .hasMessageContaining("--warm-up must be at least 0 and shorter than --duration");
        assertThatThrownBy(() -> parse("--scenario", "steady", "--cold"))
                .hasMessageContaining("--cold applies to backfill-log, backfill-pk and many-tables");
        assertThatThrownBy(() -> parse("--scenario", "backfill-log", "--cold", "--warm-rows", "10"))
                .hasMessageContaining("--warm-rows, --warm-tables and --warm-waves apply to warm mode only");
        assertThatThrownBy(() -> parse("--scenario", "backfill-log", "--warm-rows", "0"))
                .hasMessageContaining("--warm-rows must be at least 1");
        assertThatThrownBy(() -> parse("--scenario", "backfill-log", "--warm-waves", "0"))
                .hasMessageContaining("--warm-waves must be at least 1");
        assertThatThrownBy(() -> parse("--scenario", "many-tables", "--cold", "--warm-waves", "2"))
                .hasMessageContaining("--warm-waves apply to warm mode only");
    }

    @Test
    void commandLineReportsABadValueAsAUsageError() {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new BenchMain()).setErr(new PrintWriter(err));
        int code = cli.execute("--scenario", "backfill-log", "--buckets", "0");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--buckets must be at least 1, got 0");
    }

    @Test
    void refusesADataFolderThatIsNotEmpty() throws Exception {
        Files.writeString(dir.resolve("something"), "x");
        BenchMain main = new BenchMain();
        new CommandLine(main).parseArgs("--scenario", "backfill-log", "--data-dir", dir.toString());
        assertThatThrownBy(() -> new BenchRunner(main.settings(), line -> {}).run())
                .hasMessageContaining("--data-dir")
                .hasMessageContaining("not empty");
    }
}
