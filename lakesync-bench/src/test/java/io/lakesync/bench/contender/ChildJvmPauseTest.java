package io.lakesync.bench.contender;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Freezing a contender JVM while the timed tables are queued, and letting it run again. */
class ChildJvmPauseTest {

    private static final Duration STATE_TIMEOUT = Duration.ofSeconds(20);

    @Test
    void aPausedChildIsStoppedUntilResumed(@TempDir Path dir) throws Exception {
        try (ChildJvm child = ChildJvm.launch(IdleChild.class, new ChildArgs(Map.of()), "64m", dir.resolve("c.log"))) {
            awaitState(child.pid(), false);

            child.pause();
            awaitState(child.pid(), true);

            child.resume();
            awaitState(child.pid(), false);
            // A second resume is nothing: the child was not paused again.
            child.resume();
            assertThat(stopped(child.pid())).isFalse();
        }
    }

    /** Waits until the process's state in {@code /proc} is (or is not) "stopped by a signal". */
    private static void awaitState(long pid, boolean stopped) throws Exception {
        long deadline = System.nanoTime() + STATE_TIMEOUT.toNanos();
        while (stopped(pid) != stopped) {
            assertThat(System.nanoTime()).as("process %d stopped=%s in time", pid, stopped).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private static boolean stopped(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return stat.charAt(stat.lastIndexOf(')') + 2) == 'T';
    }

    /** A child that waits for its standard input to close. */
    public static final class IdleChild {
        public static void main(String[] args) throws IOException {
            while (System.in.read() >= 0) {
                // Nothing to do with the input.
            }
        }
    }
}
