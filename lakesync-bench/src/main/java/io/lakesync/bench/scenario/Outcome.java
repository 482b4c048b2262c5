package io.lakesync.bench.scenario;

import io.lakesync.bench.measure.LagTracker.LagStats;

/**
 * How the timed part of a run ended.
 *
 * @param finished every table synced (backfill), or the contender lasted the whole period (steady)
 * @param wallSeconds length of the timed part
 * @param note why it did not finish, or a remark on the run; null if none
 * @param lag steady runs only
 */
public record Outcome(boolean finished, double wallSeconds, String note, LagStats lag) {}
