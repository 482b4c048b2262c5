package io.lakesync.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.local.ClusterTest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kill -9 soak, small: a real Fluss cluster, the lakesync service in its own JVM SIGKILLed three times and
 * restarted on its data folder while a log, a primary-key and a partitioned table are written; then every row
 * is checked in the lake.
 */
@ClusterTest
class SoakTest {

    @TempDir Path dir;

    @Test
    void threeKillsLoseDuplicateAndMismatchNothing() throws Exception {
        // Seed 24 aims the kills while reading, around the Paimon commit, and during recovery.
        SoakSettings settings = new SoakSettings(
                3,
                24,
                Duration.ofSeconds(2),
                200,
                2,
                Duration.ofSeconds(5),
                Duration.ofSeconds(2),
                Duration.ofMinutes(2),
                Duration.ofMinutes(2),
                "512m",
                dir.resolve("data"),
                false);
        List<String> progress = new CopyOnWriteArrayList<>();
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();

        SoakResult result = SoakMain.run(settings, line -> {
            progress.add(line);
            System.out.println(line);
        }, new PrintStream(stdout, true, StandardCharsets.UTF_8));

        String report = stdout.toString(StandardCharsets.UTF_8);
        System.out.println(report);
        assertThat(result.kills()).isEqualTo(3);
        assertThat(result.aims()).containsOnlyKeys(
                KillPlan.Aim.READING, KillPlan.Aim.PAIMON_COMMIT, KillPlan.Aim.RECOVERING);
        assertThat(progress).filteredOn(line -> line.startsWith("kill ")).hasSize(3);
        assertThat(result.checks()).hasSize(3).allSatisfy(check -> {
            assertThat(check.exact()).as(check.toString()).isTrue();
            assertThat(check.checked()).as(check.table()).isPositive();
        });
        assertThat(result.checks().get(2).kind()).as("partitions appeared while the service was killed")
                .matches("log, ([2-9]|\\d\\d+) partitions");
        assertThat(result.stalls()).isZero();
        assertThat(result.finalCatchUp()).isNotNull();
        assertThat(result.catchUpMillis()).isNotEmpty().allMatch(ms -> ms > 0);
        assertThat(result.positions().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(9);
        assertThat(result.passed()).isTrue();
        assertThat(report).contains("| 3 of 3 |").contains("| PASS |");
        assertThat(Files.readString(dir.resolve("data/service.log")))
                .as("the service ran and committed")
                .contains("into lake snapshot");
    }
}
