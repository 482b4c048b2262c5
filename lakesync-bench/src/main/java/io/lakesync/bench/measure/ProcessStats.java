package io.lakesync.bench.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** A process's own CPU and memory accounting, read from outside the process. */
public final class ProcessStats {

    private static final String PEAK_RSS_FIELD = "VmHWM:";
    /** HotSpot's JIT compiler threads, as Linux shows their names (cut to 15 characters). */
    private static final List<String> COMPILER_THREADS = List.of("C1 CompilerThre", "C2 CompilerThre");
    /** Linux reports thread CPU in clock ticks of 1/100 s to user space (USER_HZ) on every architecture. */
    private static final long NANOS_PER_TICK = 10_000_000L;
    /** Fields of {@code /proc/<pid>/task/<tid>/stat} after the name: utime and stime are the 12th and 13th. */
    private static final int UTIME_AFTER_NAME = 11;

    private ProcessStats() {}

    /** User plus system CPU the process has used so far, or {@link Duration#ZERO} where the OS does not say. */
    public static Duration cpu(ProcessHandle process) {
        return process.info().totalCpuDuration().orElse(Duration.ZERO);
    }

    /**
     * User plus system CPU the process's JIT compiler threads have used so far (what the JVM still spends
     * compiling the code it runs), or empty where {@code /proc} does not say or the process is gone.
     */
    public static Optional<Duration> compilerCpu(long pid) {
        Path tasks = Path.of("/proc", String.valueOf(pid), "task");
        long ticks = 0;
        try (Stream<Path> threads = Files.list(tasks)) {
            for (Path thread : (Iterable<Path>) threads::iterator) {
                ticks += compilerTicks(thread.resolve("stat"));
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofNanos(ticks * NANOS_PER_TICK));
    }

    /** A thread's CPU ticks if it is a JIT compiler thread, else 0 (also when it exited meanwhile). */
    static long compilerTicks(Path threadStat) {
        String stat;
        try {
            stat = Files.readString(threadStat);
        } catch (IOException e) {
            return 0;
        }
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open) {
            return 0;
        }
        String name = stat.substring(open + 1, close);
        if (COMPILER_THREADS.stream().noneMatch(name::startsWith)) {
            return 0;
        }
        String[] fields = stat.substring(close + 1).trim().split(" ");
        return Long.parseLong(fields[UTIME_AFTER_NAME]) + Long.parseLong(fields[UTIME_AFTER_NAME + 1]);
    }

    /** Peak resident set size (Linux {@code VmHWM}) in bytes, or -1 where {@code /proc} does not say. */
    public static long peakRssBytes(long pid) {
        return parsePeakRss(Path.of("/proc", String.valueOf(pid), "status"));
    }

    static long parsePeakRss(Path statusFile) {
        try {
            for (String line : Files.readAllLines(statusFile)) {
                if (line.startsWith(PEAK_RSS_FIELD)) {
                    String[] parts = line.substring(PEAK_RSS_FIELD.length()).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
