package io.lakesync.tiering.capacity;

import io.lakesync.fluss.tiering.TableAssignment;
import java.time.Duration;
import java.time.Instant;

/**
 * What one round attempt of a table used, measured on this instance: the CPU time of the threads that did its
 * work (the round thread and its bucket readers), the memory it held (its share of the instance's live heap,
 * for its wall time), the bytes its threads allocated, and the rows and bytes it tiered (0 for a failed attempt).
 *
 * @param memoryHeldBytes the instance's live heap when the round ended (in use after the last collection),
 *     divided by the rounds running then
 */
public record RoundUsage(
        TableAssignment assignment,
        Instant endedAt,
        Duration wallTime,
        long cpuNanos,
        long allocatedBytes,
        long memoryHeldBytes,
        long rows,
        long bytes) {

    private static final double GIB = 1024.0 * 1024 * 1024;

    public double cpuSeconds() {
        return cpuNanos / 1e9;
    }

    /** Memory held over time: GiB times the round's wall seconds. */
    public double memoryGibSeconds() {
        return memoryHeldBytes / GIB * wallTime.toNanos() / 1e9;
    }

    /**
     * The compute units used, in CU-seconds ({@link ComputeUnit}): its CPU seconds, or more when it held more
     * memory than those CPU seconds come with, and at most its wall time, the one CU it held meanwhile.
     */
    public double cuSeconds() {
        return ComputeUnit.cuSeconds(cpuSeconds(), memoryGibSeconds(), wallTime.toNanos() / 1e9);
    }
}
