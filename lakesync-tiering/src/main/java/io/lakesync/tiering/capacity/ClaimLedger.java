package io.lakesync.tiering.capacity;

import org.apache.fluss.metadata.TablePath;

/**
 * Where the compute units of running rounds are claimed and released, so that the {@link CapacityQuotas} hold
 * for every instance together: {@link LocalClaimLedger} in memory for a single instance, or a ledger in the
 * state database that the instances share. {@link QuotaAdmission} decides the order in which this instance's
 * tables ask; the ledger alone decides whether a CU is free.
 *
 * <p>A ledger that does not {@link #answersAtOnce() answer at once} is called off the engine's threads, one call
 * at a time, and must answer or throw {@link Unreachable} within a bounded time.
 */
public interface ClaimLedger {

    /**
     * Claims one CU for a round of {@code table} if the cluster's quota and its database's quota have one free.
     *
     * @throws Unreachable if the ledger cannot be reached or did not answer in time; nothing was claimed
     */
    Answer claim(TablePath table, CapacityQuotas quotas) throws Unreachable;

    /**
     * Frees a claim that {@link #claim} granted; freeing one twice, or one already reclaimed, does nothing.
     *
     * @throws Unreachable if the ledger cannot be reached; the claim may still hold its CU
     */
    void release(long claimId) throws Unreachable;

    /**
     * The live instances sharing this ledger as last seen, at least 1: while the ledger is unreachable, an
     * instance runs at most its fair share of each quota, the quota divided by this.
     */
    int liveInstances();

    /** Whether calls answer from memory at once, so the admission may call them on any thread, holding its lock. */
    boolean answersAtOnce();

    /** The ledger's answer to a claim. */
    sealed interface Answer permits Granted, Refused {}

    /** The CU is claimed under {@code claimId} (positive) until released. */
    record Granted(long claimId) implements Answer {}

    /**
     * No CU is free: the database's quota is used up ({@code byDatabase}), or the cluster's; {@code reason} says
     * which, with the CUs in use, for the table's status.
     */
    record Refused(boolean byDatabase, String reason) implements Answer {}

    /** The ledger could not be reached, or did not answer in time. */
    final class Unreachable extends Exception {
        public Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
