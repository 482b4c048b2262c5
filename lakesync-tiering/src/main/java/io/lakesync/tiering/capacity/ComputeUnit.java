package io.lakesync.tiering.capacity;

/**
 * lakesync's compute unit (CU), one definition for the quotas and for usage: <b>one running round</b>, which
 * is metered as <b>at most one CU-hour per hour</b> it runs.
 *
 * <ul>
 *   <li>Quotas ({@link CapacityQuotas}: {@code quota.cluster-cu}, {@code quota.database-cu}) count CUs in use:
 *       every running round of every instance sharing the state holds one, claimed before it starts and freed
 *       when it ends.
 *   <li>Usage counts CU-hours. A CU's size is one core with {@value #GIB_PER_CU} GiB of memory: a round that took
 *       {@code c} CPU seconds while holding {@code m} GiB-seconds of memory during {@code w} seconds used
 *       {@code min(w, max(c, m / 4))} CU-seconds, its CPU, or more when it held more memory than that CPU comes
 *       with, but never more than the one CU it held for its wall time. A round's parallel readers may use more
 *       than one core; that is within its CU (the CPU is still reported as measured).
 * </ul>
 *
 * So a quota of N CUs bounds the metered usage at N CU-hours per hour, the unit that {@code billing.provisioned-cu}
 * is given in, and a round that waits for I/O uses less than its CU.
 */
public final class ComputeUnit {

    public static final int GIB_PER_CU = 4;

    private ComputeUnit() {}

    /** The CU-seconds of a round: see the class comment. */
    public static double cuSeconds(double cpuSeconds, double memoryGibSeconds, double wallSeconds) {
        return Math.min(wallSeconds, Math.max(cpuSeconds, memoryGibSeconds / GIB_PER_CU));
    }
}
