package io.lakesync.tiering;

import io.lakesync.config.LakeSyncOptions;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Keeps a second tiering engine, in another process or in this one, off a data folder: two engines on one
 * folder would hand back each other's tables from the shared in-flight journal and delete each other's spill
 * files. The operating system releases the lock when the process dies, so a crash never leaves it behind.
 */
final class DataDirLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Locks {@code workDir/.lock}, or fails naming the data folder and its config key. */
    static DataDirLock acquire(Path dataDir, Path workDir) throws IOException {
        Files.createDirectories(workDir);
        Path file = workDir.resolve(".lock");
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held by another engine in this JVM
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            throw new IllegalStateException(
                    "Data folder " + dataDir + " (config key '" + LakeSyncOptions.DATA_DIR.key() + "') is in use by "
                            + "another lakesync tiering engine (it holds " + file + "). Stop that one, or give this "
                            + "instance its own '" + LakeSyncOptions.DATA_DIR.key() + "'.");
        }
        return new DataDirLock(channel, lock);
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
