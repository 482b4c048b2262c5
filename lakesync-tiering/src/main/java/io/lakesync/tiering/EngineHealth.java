package io.lakesync.tiering;

import java.time.Instant;
import javax.annotation.Nullable;

/**
 * Whether the tiering engine of this instance is doing its job: it is healthy while its heartbeats to the
 * Fluss coordinator succeed; once none has succeeded for longer than the coordinator's timeout (its tables
 * are then handed to others) it is not, with the reason.
 *
 * @param lastHeartbeat when a heartbeat last succeeded, or null if none has yet
 */
public record EngineHealth(boolean healthy, @Nullable String reason, @Nullable Instant lastHeartbeat) {}
