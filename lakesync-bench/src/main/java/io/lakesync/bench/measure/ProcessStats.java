package io.lakesync.bench.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** A process's own CPU and memory accounting, read from outside the process. */
public final class ProcessStats {

    private static final String PEAK_RSS_FIELD = "VmHWM:";

    private ProcessStats() {}

    /** User plus system CPU the process has used so far, or {@link Duration#ZERO} where the OS does not say. */
    public static Duration cpu(ProcessHandle process) {
        return process.info().totalCpuDuration().orElse(Duration.ZERO);
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
