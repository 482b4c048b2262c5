package io.lakesync.tiering;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.config.LakeSyncConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

/**
 * The engine on a real cluster when its own surroundings misbehave: an in-flight journal that cannot be
 * written, a second engine (in this JVM or another process) on the same data folder, and spill files left by
 * a killed run.
 */
class EngineRobustnessTest extends TieringTestBase {

    @Test
    void loopKeepsHeartbeatingAndSyncingWhenTheJournalCannotBeWritten() throws Exception {
        LakeSyncConfig config = serviceConfig("journal-instance", Map.of());
        // A non-empty folder where the journal writes its temporary file: every journal write fails.
        Path inTheWay = root.resolve("journal-instance").resolve("tiering").resolve("in-flight.tmp");
        Files.createDirectories(inTheWay);
        Files.writeString(inTheWay.resolve("keep"), "in the way");
        TablePath first = TablePath.of("fluss", "journal_first");
        TablePath second = TablePath.of("fluss", "journal_second");
        createTable(first, idTable(1, "1s"));
        append(first, ids(0, 100));

        try (TieringService service = new TieringService(config)) {
            service.start();
            awaitTiered(first);
            Instant before = service.health().lastHeartbeat();
            assertThat(before).isNotNull();
            createTable(second, idTable(1, "1s"));
            append(second, ids(0, 50));
            append(first, ids(100, 200));
            awaitTiered(second);
            awaitTiered(first);
            EngineHealth health = service.health();
            assertThat(health.healthy()).isTrue();
            assertThat(health.lastHeartbeat()).isAfter(before);
        }
        assertThat(Files.exists(root.resolve("journal-instance").resolve("tiering").resolve("in-flight")))
                .as("no journal was written")
                .isFalse();
        assertThat(readLake(first, "id")).hasSize(200);
        assertThat(readLake(second, "id")).hasSize(50);
    }

    @Test
    void secondEngineOnTheSameDataFolderIsRefusedInThisJvmAndInAnother() throws Exception {
        LakeSyncConfig config = serviceConfig("locked-instance", Map.of());
        Path dataDir = root.resolve("locked-instance").toAbsolutePath();
        try (TieringService first = new TieringService(config)) {
            first.start();
            TieringService second = new TieringService(config);
            assertThatThrownBy(second::start)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Data folder " + dataDir)
                    .hasMessageContaining("'data.dir'");

            Path log = root.resolve("locked-child.log");
            Process child = TieringProcessMain.startChild(config, List.of(), log);
            try {
                assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("second process gave up").isTrue();
            } finally {
                child.destroyForcibly();
            }
            assertThat(child.exitValue()).isNotZero();
            assertThat(Files.readString(log, StandardCharsets.UTF_8))
                    .contains("Data folder " + dataDir)
                    .contains("'data.dir'")
                    .doesNotContain("STARTED");
            assertThat(first.health().healthy()).isTrue();
        }
        // Released on close: the folder can be used again.
        try (TieringService again = new TieringService(config)) {
            again.start();
            eventually(Duration.ofSeconds(30), () -> assertThat(again.health().lastHeartbeat()).isNotNull());
        }
    }

    @Test
    void spillFilesLeftByAKilledRunAreDeletedAtStart() throws Exception {
        Path ioTmp = root.resolve("spill-instance").resolve("tiering").resolve("io-tmp");
        Path leftOver = ioTmp.resolve("paimon-io-1234").resolve("spill-0.channel");
        Files.createDirectories(leftOver.getParent());
        Files.writeString(leftOver, "spilled rows of a run killed with -9");

        try (TieringService service = new TieringService(serviceConfig("spill-instance", Map.of()))) {
            service.start();
            assertThat(ioTmp).isDirectory();
            try (Stream<Path> left = Files.list(ioTmp)) {
                assertThat(left).isEmpty();
            }
        }
    }
}
