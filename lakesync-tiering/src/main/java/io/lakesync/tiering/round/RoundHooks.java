package io.lakesync.tiering.round;

import io.lakesync.fluss.tiering.TableAssignment;

/** Called as a round passes each {@link RoundStage}; how failures at exact points are caused in tests. */
@FunctionalInterface
public interface RoundHooks {

    RoundHooks NONE = (stage, assignment) -> {};

    void reached(RoundStage stage, TableAssignment assignment) throws Exception;
}
