package io.lakesync.fluss.tiering;

import java.util.List;
import java.util.Set;

/**
 * One lake-tiering heartbeat: tables still in progress (renews them), tables finished (with those that hit
 * their freshness and were force-finished), tables failed, and whether this instance can take one more.
 */
public record HeartbeatRequest(
        List<TableEpoch> inProgress,
        List<TableEpoch> finished,
        Set<Long> forceFinished,
        List<TableEpoch> failed,
        boolean requestTable) {

    /** A heartbeat with no entries: how an instance registers and learns the coordinator epoch. */
    public static HeartbeatRequest registration() {
        return new HeartbeatRequest(List.of(), List.of(), Set.of(), List.of(), false);
    }

    /** Renews a single table, the fencing check before a lake commit. */
    public static HeartbeatRequest renew(TableEpoch table) {
        return new HeartbeatRequest(List.of(table), List.of(), Set.of(), List.of(), false);
    }
}
