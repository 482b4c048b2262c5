package io.lakesync.migrate;

import java.time.Clock;
import java.util.Collection;
import java.util.Optional;

/**
 * Whether the stopped tiering jobs may still hold a table, so that handing it back to the coordinator could race
 * a holder that is alive. Not when Flink showed them ended. When it did not (their cluster went away, or was gone
 * before this run), not once every waiting table's tiering epoch moved since the jobs were stopped (the
 * coordinator re-queued it, so whoever held it then let go), nor once Fluss's tiering timeout passed since (the
 * coordinator took every table from a holder that stopped heartbeating).
 */
record JobHold(TableRelease coordinator, JobsStopped stopped, Clock clock) {

    /** Why the jobs hold none of the waiting tables (by id) any more; empty while one of them may. */
    Optional<String> over(Collection<Long> waitingTableIds) throws Exception {
        if (stopped.endedInFlink()) {
            return Optional.of("Flink showed the jobs ended.");
        }
        if (clock.millis() - stopped.atMillis() > Migration.COORDINATOR_TIMEOUT.toMillis()) {
            return Optional.of("Fluss's tiering timeout has passed since the job stopped: the coordinator took back "
                    + "every table it held.");
        }
        for (long tableId : waitingTableIds) {
            Long before = stopped.epochsBefore().get(tableId);
            if (before != null && coordinator.currentEpoch(tableId).filter(before::equals).isPresent()) {
                return Optional.empty();
            }
        }
        return Optional.of("Fluss's coordinator shows no table held by the stopped job any more.");
    }
}
