package io.lakesync.bench.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The whole machine's CPU time from Linux {@code /proc/stat}: how busy the cores were while a contender ran, so
 * that a run limited by the machine (contender, Fluss cluster and driver together) shows as such.
 *
 * @param busySeconds CPU time spent in user, nice, system, irq, softirq and steal, summed over all cores
 * @param totalSeconds the same plus idle and iowait: cores × elapsed time
 */
public record MachineCpu(double busySeconds, double totalSeconds) {

    private static final Path PROC_STAT = Path.of("/proc/stat");
    /** USER_HZ: the unit of /proc/stat, 100 on every Linux architecture the JDK runs on. */
    private static final double TICKS_PER_SECOND = 100.0;

    /** Now, or null where {@code /proc/stat} cannot be read (not Linux). */
    public static MachineCpu now() {
        try {
            return parse(Files.readAllLines(PROC_STAT));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static MachineCpu parse(List<String> procStat) {
        for (String line : procStat) {
            String[] f = line.trim().split("\\s+");
            if (f[0].equals("cpu")) {
                long user = Long.parseLong(f[1]);
                long nice = Long.parseLong(f[2]);
                long system = Long.parseLong(f[3]);
                long idle = Long.parseLong(f[4]);
                long iowait = field(f, 5);
                long busy = user + nice + system + field(f, 6) + field(f, 7) + field(f, 8);
                return new MachineCpu(busy / TICKS_PER_SECOND, (busy + idle + iowait) / TICKS_PER_SECOND);
            }
        }
        throw new IllegalArgumentException("no aggregate 'cpu' line in /proc/stat");
    }

    private static long field(String[] fields, int index) {
        return index < fields.length ? Long.parseLong(fields[index]) : 0;
    }

    /** The CPU time from {@code earlier} to this reading. */
    public MachineCpu since(MachineCpu earlier) {
        return new MachineCpu(busySeconds - earlier.busySeconds, totalSeconds - earlier.totalSeconds);
    }
}
