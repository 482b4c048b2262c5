package io.lakesync.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SoakReportTest {

    private static final SoakSettings SETTINGS = new SoakSettings(4, 42, Duration.ofSeconds(3), 500, 2,
            Duration.ofSeconds(30), Duration.ofSeconds(8), Duration.ofMinutes(3), Duration.ofMinutes(5), "1g",
            Path.of("/tmp/soak"), false);

    private static SoakResult result(List<TableCheck> checks, int kills, int stalls, Duration finalCatchUp) {
        return new SoakResult(SETTINGS, Instant.parse("2026-11-30T20:00:00Z"), Duration.ofMinutes(12), kills,
                Map.of(KillPlan.Aim.RANDOM, kills), Map.of(RoundStageWatch.Position.READING_WRITING, kills * 3), 0,
                List.of(4_000L, 1_000L, 3_000L, 2_000L), stalls, 0, finalCatchUp, checks);
    }

    private static final List<TableCheck> EXACT = List.of(
            new TableCheck("soak.events", "log", "1,000 rows", 1_000, 0, 0, 0),
            new TableCheck("soak.accounts", "primary key", "1,000 operations, 700 live keys", 700, 0, 0, 0));

    @Test
    void anExactSoakPassesAndShowsTheCatchUpDistribution() {
        SoakResult passed = result(EXACT, 4, 0, Duration.ofMillis(5_500));
        String report = SoakReport.render(passed);

        assertThat(passed.passed()).isTrue();
        assertThat(report)
                .contains("2026-11-30 20:00 UTC, 12 min: 4 kills (seed 42)")
                .contains("| 4 of 4 | 1,700 | 0 | 0 | 0 | 2.0 s / 4.0 s / 4.0 s (4) | 0 | 5.5 s | PASS |")
                .contains("| soak.accounts | primary key | 1,000 operations, 700 live keys | 700 | 0 | 0 | 0 |")
                .contains("4 at a random moment")
                .contains("12 reading Fluss and writing files");
    }

    @Test
    void anyLossDuplicateMismatchStallOrMissingCatchUpFails() {
        assertThat(result(List.of(new TableCheck("t", "log", "", 9, 1, 0, 0)), 4, 0, Duration.ZERO).passed()).isFalse();
        assertThat(result(List.of(new TableCheck("t", "log", "", 9, 0, 1, 0)), 4, 0, Duration.ZERO).passed()).isFalse();
        assertThat(result(List.of(new TableCheck("t", "log", "", 9, 0, 0, 1)), 4, 0, Duration.ZERO).passed()).isFalse();
        assertThat(result(EXACT, 4, 1, Duration.ZERO).passed()).isFalse();
        assertThat(result(EXACT, 3, 0, Duration.ZERO).passed()).as("fewer kills than asked").isFalse();
        SoakResult notCaughtUp = result(EXACT, 4, 0, null);
        assertThat(notCaughtUp.passed()).isFalse();
        assertThat(SoakReport.render(notCaughtUp)).contains("NOT within 5min").contains("| FAIL |");
    }
}
