package io.lakesync.tiering;

import io.lakesync.config.LakeSyncOptions;
import io.lakesync.folder.FolderLock;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Keeps a second tiering engine, in another process or in this one, off a data folder: two engines on one
 * folder would hand back each other's tables from the shared in-flight journal and delete each other's spill
 * files.
 */
final class DataDirLock {

    private DataDirLock() {}

    /** Locks {@code workDir/.lock}, or fails naming the data folder and its config key. */
    static FolderLock acquire(Path dataDir, Path workDir) throws IOException {
        return FolderLock.acquire(workDir, ".lock", file -> new IllegalStateException(
                "Data folder " + dataDir + " (config key '" + LakeSyncOptions.DATA_DIR.key() + "') is in use by "
                        + "another lakesync tiering engine (it holds " + file + "). Stop that one, or give this "
                        + "instance its own '" + LakeSyncOptions.DATA_DIR.key() + "'."));
    }
}
