package io.lakesync.bench.scenario;

/** A benchmark scenario: how to lay out and fill fresh tables for each contender run. */
public interface Scenario {

    /** Name on the command line and in the report. */
    String name();

    /** Whether the read and write bounds apply (backfills, whose content is known before the run). */
    boolean hasBounds();

    /**
     * Creates fresh tables named after {@code runTag}, identical in content for every run, fills them (unless
     * {@code withData} is false) and leaves them queued for tiering, or, when {@code parked}, out of every tiering
     * service's reach until {@link Workload#release} (warm mode: the contender warms up first), which may write
     * the part of the content a wait would change (a primary-key table's changelog tail).
     */
    Workload prepare(String runTag, boolean withData, boolean parked) throws Exception;
}
