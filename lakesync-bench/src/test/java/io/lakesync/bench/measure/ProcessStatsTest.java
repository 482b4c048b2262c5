package io.lakesync.bench.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessStatsTest {

    @TempDir Path dir;

    @Test
    void readsPeakRssFromProcStatus() throws Exception {
        Path status = Files.writeString(dir.resolve("status"), "Name:\tjava\nVmPeak:\t 9000 kB\nVmHWM:\t  1234 kB\n");
        assertThat(ProcessStats.parsePeakRss(status)).isEqualTo(1234 * 1024);
    }

    @Test
    void unknownWhenTheFileSaysNothing() throws Exception {
        assertThat(ProcessStats.parsePeakRss(dir.resolve("missing"))).isEqualTo(-1);
        assertThat(ProcessStats.parsePeakRss(Files.writeString(dir.resolve("s"), "Name:\tjava\n"))).isEqualTo(-1);
    }

    @Test
    void countsOnlyTheJitCompilerThreads() throws Exception {
        Path c2 = Files.writeString(dir.resolve("c2"),
                "4711 (C2 CompilerThre) S 4700 4700 0 0 -1 1077936192 900 0 0 0 345 12 0 0 20 0 1 0 58 0 0\n");
        Path namedOddly = Files.writeString(dir.resolve("odd"),
                "4712 (a (b) c) S 4700 4700 0 0 -1 1077936192 900 0 0 0 999 999 0 0 20 0 1 0 58 0 0\n");
        Path reader = Files.writeString(dir.resolve("reader"),
                "4713 (lakesync-reader) R 4700 4700 0 0 -1 1077936192 900 0 0 0 800 40 0 0 20 0 1 0 58 0 0\n");

        assertThat(ProcessStats.compilerTicks(c2)).isEqualTo(357);
        assertThat(ProcessStats.compilerTicks(namedOddly)).isZero();
        assertThat(ProcessStats.compilerTicks(reader)).isZero();
        assertThat(ProcessStats.compilerTicks(dir.resolve("exited"))).isZero();
    }

    @Test
    void noCompilerFiguresForAProcessThatIsGone() {
        assertThat(ProcessStats.compilerCpu(Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void thisProcessHasUsedCpuAndMemory() {
        assertThat(ProcessStats.cpu(ProcessHandle.current())).isGreaterThan(Duration.ZERO);
        if (Files.exists(Path.of("/proc/self/status"))) {
            assertThat(ProcessStats.peakRssBytes(ProcessHandle.current().pid())).isPositive();
        }
    }

    @Test
    void durationsReadLikeTheOptions() {
        assertThat(Durations.text(Duration.ofMillis(500))).isEqualTo("500ms");
        assertThat(Durations.text(Duration.ofSeconds(30))).isEqualTo("30s");
        assertThat(Durations.text(Duration.ofMinutes(10))).isEqualTo("10min");
        assertThat(Durations.text(Duration.ofHours(2))).isEqualTo("2h");
    }
}
