package io.lakesync.tiering.capacity;

/**
 * lakesync's compute unit (CU): one core with {@value #GIB_PER_CU} GiB of memory. Usage is counted in
 * CU-hours; a piece of work that took {@code c} CPU seconds while holding {@code m} GiB-seconds of memory used
 * {@code max(c, m / 4)} CU-seconds: its CPU, plus the memory beyond what that CPU's CUs include.
 */
public final class ComputeUnit {

    public static final int GIB_PER_CU = 4;

    private ComputeUnit() {}

    public static double cuSeconds(double cpuSeconds, double memoryGibSeconds) {
        return Math.max(cpuSeconds, memoryGibSeconds / GIB_PER_CU);
    }
}
