package io.lakesync.tiering;

import io.lakesync.config.LakeSyncConfig;

/**
 * The native tiering engine of one lakesync instance: registers with the Fluss coordinator as a tiering
 * service, takes tables from it and syncs each into its Paimon table exactly once.
 *
 * <p>Skeleton: the engine is being built (issue "Native tiering engine"); {@link #start()} and
 * {@link #close()} are the contract the service and the launcher rely on.
 */
public final class TieringService implements AutoCloseable {

    private final LakeSyncConfig config;

    public TieringService(LakeSyncConfig config) {
        this.config = config;
    }

    /** Starts syncing in the background; returns at once. */
    public void start() {}

    /** Stops syncing; tables in progress are handed back to the coordinator. */
    @Override
    public void close() {}

    public LakeSyncConfig config() {
        return config;
    }
}
