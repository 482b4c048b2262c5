package io.lakesync.tiering;

import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.tiering.round.RoundControl;
import io.lakesync.tiering.round.RoundResult;

/** Runs one round of a held table to its end; a thrown exception is a failed round. */
@FunctionalInterface
interface RoundRunner {

    RoundResult run(TableAssignment assignment, RoundControl control) throws Exception;
}
