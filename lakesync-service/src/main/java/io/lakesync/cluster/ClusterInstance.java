package io.lakesync.cluster;

import java.time.Instant;
import java.util.List;
import javax.annotation.Nullable;

/**
 * One lakesync instance as the shared state knows it.
 *
 * @param heartbeatAgeMillis how old its last heartbeat was when listed, measured on the database's clock that
 *     stamped it, so a reader's own clock (the CLI's machine) never skews it
 * @param tablesHeld the tables its engine held at its last heartbeat
 * @param capacity how many tables it syncs at the same time ({@code tiering.workers})
 * @param state derived when listed: ALIVE while its heartbeat is recent, DEAD once it is older than
 *     {@code cluster.instance-timeout}, STOPPED after a clean stop
 * @param leader whether it holds the once-per-cluster duties (alert evaluation) now
 */
public record ClusterInstance(
        String id,
        String host,
        String url,
        String version,
        Instant startedAt,
        Instant heartbeatAt,
        long heartbeatAgeMillis,
        @Nullable Instant stoppedAt,
        List<String> tablesHeld,
        int capacity,
        State state,
        boolean leader) {

    public enum State {
        ALIVE,
        DEAD,
        STOPPED
    }
}
