package io.lakesync.tiering;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.retry.RetryBackoff;
import java.time.Duration;

/**
 * The engine's settings, read and checked once from the configuration.
 *
 * @param coordinatorTimeout how long the coordinator waits for a heartbeat before it takes a table back and
 *     hands it to another tiering service; the engine is unhealthy once its heartbeats failed for that long
 */
record EngineSettings(
        int workers,
        Duration pollInterval,
        RetryBackoff backoff,
        Duration blockedRecheck,
        boolean continuous,
        Duration continuousMaxHold,
        Duration idleReadTimeout,
        Duration coordinatorTimeout) {

    /** Fluss 0.9.1's {@code TIERING_SERVICE_TIMEOUT_MS}, hard-coded in its coordinator. */
    static final Duration COORDINATOR_TIERING_TIMEOUT = Duration.ofMinutes(2);

    static EngineSettings of(LakeSyncConfig config) {
        int workers = config.get(LakeSyncOptions.TIERING_WORKERS);
        if (workers <= 0) {
            throw new IllegalArgumentException(
                    "Config key '" + LakeSyncOptions.TIERING_WORKERS.key() + "' must be at least 1, but is "
                            + workers + ".");
        }
        return new EngineSettings(
                workers,
                config.get(LakeSyncOptions.TIERING_POLL_INTERVAL),
                RetryBackoff.jittered(
                        config.get(LakeSyncOptions.TIERING_RETRY_INITIAL_BACKOFF),
                        config.get(LakeSyncOptions.TIERING_RETRY_MAX_BACKOFF)),
                config.get(LakeSyncOptions.TIERING_BLOCKED_RECHECK_INTERVAL),
                config.get(LakeSyncOptions.TIERING_CONTINUOUS),
                config.get(LakeSyncOptions.TIERING_CONTINUOUS_MAX_HOLD),
                config.get(LakeSyncOptions.TIERING_IDLE_READ_TIMEOUT),
                COORDINATOR_TIERING_TIMEOUT);
    }
}
