package io.lakesync.bench.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.bench.soak.TableCheck;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CampaignReportTest {

    private static final CampaignSettings SETTINGS = new CampaignSettings(4, List.of(), 2, 1, 42, Duration.ofSeconds(1), 100,
            2, Duration.ofMinutes(2), Duration.ofMillis(200), Duration.ofSeconds(2), Duration.ofMinutes(2),
            Duration.ofMinutes(5), "512m", null, false);

    @Test
    void aCleanCampaignShowsOneLinePerKindTheTotalsAndPasses() {
        KindStats kill = kind("kill", 3, 3, List.of(1200L, 2000L, 4100L));
        kill.rowsChecked = 1_200;
        KindStats cut = kind("net-cut", 1, 1, List.of(800L));
        CampaignResult result = result(List.of(kill, cut), new KindStats("between faults", ""), Duration.ofMillis(1500),
                new TableCheck("soak.events", "log", "5,000 rows", 5_000, 0, 0, 0));

        String report = CampaignReport.render(result);

        assertThat(result.passed()).isTrue();
        assertThat(report)
                .contains("4 faults of 2 kinds (seed 42), 2 instance(s)")
                .contains("| kill | 3 | 3 | 1,200 | 0 | 0 | 0 | 2.0 s / 4.1 s / 4.1 s | 0 |")
                .contains("| net-cut | 1 | 1 | 0 | 0 | 0 | 0 | 0.8 s / 0.8 s / 0.8 s | 0 |")
                .contains("| between faults | – | – | 0 | 0 | 0 | 0 | – | 0 |")
                .contains("| **all** | 4 | 4 | 5,000 | 0 | 0 | 0 | final catch-up 1.5 s | 0 |")
                .contains("Result: PASS")
                .contains("| soak.events | log | 5,000 rows | 5,000 | 0 | 0 | 0 |")
                .contains("- kill: what kill does");
    }

    @Test
    void aLieALostRowAStallOrAnExitFailsTheCampaignAndShowsWhere() {
        KindStats freeze = kind("state-freeze", 2, 1, List.of(900L));
        freeze.exits = 1;
        freeze.stalls = 1;
        freeze.statusLies = 2;
        freeze.lost = 3;
        CampaignResult result = result(List.of(freeze), new KindStats("between faults", ""), null,
                new TableCheck("soak.events", "log", "10 rows", 7, 3, 0, 0));

        String report = CampaignReport.render(result);

        assertThat(result.passed()).isFalse();
        assertThat(report)
                .contains("| state-freeze | 2 | 1 (1 stall, 1 instance exit) | 0 | 3 | 0 | 0 | 0.9 s / 0.9 s / 0.9 s | 2 |")
                .contains("final catch-up NOT within 5min")
                .contains("Result: FAIL");
    }

    @Test
    void kindsLeftOutAndAnEarlyEndAreNamedWithTheReason() {
        CampaignResult result = new CampaignResult(SETTINGS, Instant.EPOCH, Duration.ofMinutes(1), List.of(),
                new KindStats("between faults", ""), List.of("coordinator (needs a local stack that can restart it)"),
                "after fault 3 (kill), the lake did not catch up", Duration.ZERO, List.of());

        assertThat(CampaignReport.render(result))
                .contains("- not injected: coordinator (needs a local stack that can restart it)")
                .contains("Ended early: after fault 3 (kill), the lake did not catch up.");
        assertThat(result.passed()).isFalse();
    }

    private static KindStats kind(String name, int injected, int survived, List<Long> catchUps) {
        KindStats stats = new KindStats(name, "what " + name + " does");
        stats.injected = injected;
        stats.survived = survived;
        stats.catchUpMillis.addAll(catchUps);
        return stats;
    }

    private static CampaignResult result(List<KindStats> kinds, KindStats between, Duration finalCatchUp, TableCheck check) {
        return new CampaignResult(SETTINGS, Instant.parse("2026-12-06T11:00:00Z"), Duration.ofMinutes(3), kinds, between,
                List.of(), null, finalCatchUp, List.of(check));
    }
}
