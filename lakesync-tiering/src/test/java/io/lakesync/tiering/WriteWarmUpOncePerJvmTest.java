package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.local.ClusterTest;
import io.lakesync.tiering.warmup.WriteWarmUp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The service's use of the warm-up: a failure is not fatal, and a JVM warms up once. A fresh JVM per class. */
@ClusterTest
class WriteWarmUpOncePerJvmTest {

    private static final WriteWarmUp.Writers DEFAULT_WRITERS = new WriteWarmUp.Writers(true, true);

    @TempDir
    Path dir;

    @Test
    void aFailedWarmUpIsReportedColdThenASuccessfulOneWarmsTheJvmForEveryLaterEngine() throws Exception {
        Path notAFolder = Files.writeString(dir.resolve("not-a-folder"), "x");
        WriteWarmUp failing = new WriteWarmUp(notAFolder.resolve("warm-up"), DEFAULT_WRITERS, Clock.systemUTC());

        assertThat(TieringService.warmUpWritePath(failing)).isFalse();

        Path warehouse = dir.resolve("warm-up");
        assertThat(TieringService.warmUpWritePath(new WriteWarmUp(warehouse, DEFAULT_WRITERS, Clock.systemUTC())))
                .isTrue();
        assertThat(warehouse).doesNotExist();
        // Warm now: the warm-up does not run again (it would fail here).
        assertThat(TieringService.warmUpWritePath(failing)).isTrue();
    }
}
