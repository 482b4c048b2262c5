package io.lakesync.local;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.folder.FolderLock;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Keeps a second local stack off a data folder. Two stacks on one folder run two ZooKeeper servers over the same
 * snapshot and log files and two Fluss clusters over the same remote and lake folders: each overwrites and
 * deletes what the other wrote (a restart after two overlapping stacks found a table's lake offsets file gone, and
 * its buckets got no leader). Taken before anything starts.
 */
public final class LocalStackLock {

    private LocalStackLock() {}

    /** Locks {@code dataDir}, creating it if need be, or fails naming the folder and its config key. */
    public static FolderLock acquire(Path dataDir) throws IOException {
        return FolderLock.acquire(dataDir, ".local-stack.lock", file -> new ConfigException(
                "Data folder " + dataDir + " (config key '" + LakeSyncOptions.DATA_DIR.key()
                        + "') is in use by another local stack (it holds " + file + "). Stop that one first, or "
                        + "give this one its own folder with --data-dir."));
    }
}
