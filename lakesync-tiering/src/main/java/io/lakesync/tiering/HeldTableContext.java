package io.lakesync.tiering;

import io.lakesync.tiering.capacity.QuotaAdmission;
import java.time.Clock;
import java.util.function.Function;

/**
 * Everything a {@link HeldTable} works with, handed over once when the engine takes the table: the table asks
 * the engine for nothing else.
 *
 * @param classifier what a round's failure means for the table (retry, block, give back)
 * @param assigner the engine's side of a hold: whether it still runs, whether other tables wait, where the
 *     table goes back
 */
record HeldTableContext(
        Clock clock,
        EngineSettings settings,
        EngineScheduler scheduler,
        RoundRunner rounds,
        Function<Throwable, FailureKind> classifier,
        TieringListener listener,
        QuotaAdmission admission,
        Assigner assigner) {

    /** The engine's assigner loop as a held table sees it. */
    interface Assigner {

        /** False once the engine stops: a table then goes back instead of waiting for its next attempt. */
        boolean isRunning();

        /** Whether the coordinator had another table to hand out at the last heartbeat that asked for one. */
        boolean otherTablesWaiting();

        /** How many heartbeats so far asked for a table, so a table knows {@link #otherTablesWaiting} is fresh. */
        long tableRequests();

        /** A round ended and freed its worker: ask the coordinator for a table now, not at the next poll. */
        void workerFreed();

        /** The table left: report it with the next heartbeat. */
        void released(HeldTable table, boolean failed, boolean forceFinished);
    }
}
