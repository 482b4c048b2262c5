package io.lakesync.bench.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.local.ClusterTest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault campaign, small: two lakesync instances on a real PostgreSQL state, a lake on the local S3 server and
 * Fluss behind proxies get every fault kind of the services around Fluss twice while the three tables are written;
 * then every row is checked.
 */
@ClusterTest
class CampaignTest {

    /**
     * Freshness + 30 s, as the bar has it, plus the 20 s a killed holder's commit lock may live: a fault
     * caught up later counts as a stall, repaired by restarting every instance, which costs minutes on a busy machine.
     */
    private static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(51);

    @TempDir Path dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void everyKindTwiceLosesDuplicatesAndMismatchesNothingAndNoStatusLies() throws Exception {
        // The tablet-server and coordinator kinds run in LeaderFailoverTest (lakesync-tiering) on a stack of three
        // tablet servers: here, a tablet server stopped after the in-process coordinator restarted can stay without
        // leaders in Fluss 0.9.1, which would fail the campaign's writer, not lakesync.
        List<String> kinds = List.of("kill", "state-freeze", "state-restart", "lake-errors", "lake-slow", "net-delay",
                "net-cut", "clock-skew");
        CampaignSettings settings = new CampaignSettings(2 * kinds.size(), kinds, 2, 1, 7, Duration.ofSeconds(1), 50, 2,
                Duration.ofSeconds(20), Duration.ofMillis(100), Duration.ofMillis(600), CATCH_UP_TIMEOUT,
                Duration.ofMinutes(1), "384m", dir.resolve("data"), false);
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();

        CampaignResult result = CampaignMain.run(settings, System.out::println,
                new PrintStream(stdout, true, StandardCharsets.UTF_8));

        System.out.println(stdout.toString(StandardCharsets.UTF_8));
        // Survival (catching up in time) is reported, not asserted: a stall is the service's to fix, and the
        // campaign repairs it and goes on; what must never happen is a wrong lake or a status that lies.
        assertThat(result.kinds()).hasSize(kinds.size()).allSatisfy(kind -> {
            assertThat(kind.injected).as(kind.name).isEqualTo(2);
            assertThat(kind.statusLies).as(kind.name + " status lies").isZero();
        });
        assertThat(result.betweenFaults().statusLies).as("status lies between faults").isZero();
        assertThat(result.checks()).hasSize(3).allSatisfy(check -> {
            assertThat(check.exact()).as(check.toString()).isTrue();
            assertThat(check.checked()).as(check.table()).isPositive();
        });
        assertThat(result.finalCatchUp()).isNotNull();
    }
}
