package io.lakesync.tiering;

import io.lakesync.config.LakeSyncOptions;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps a second tiering engine, in another process or in this one, off a data folder: two engines on one
 * folder would hand back each other's tables from the shared in-flight journal and delete each other's spill
 * files. The operating system releases the lock when the process dies, so a crash never leaves it behind.
 *
 * <p>Engines of this JVM are told apart before the file is opened: on Linux, closing any descriptor of a
 * file drops every lock this process holds on it, so a refused second engine must not open it at all.
 */
final class DataDirLock implements AutoCloseable {

    private static final Set<Path> LOCKED_IN_THIS_JVM = ConcurrentHashMap.newKeySet();

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /** Locks {@code workDir/.lock}, or fails naming the data folder and its config key. */
    static DataDirLock acquire(Path dataDir, Path workDir) throws IOException {
        Files.createDirectories(workDir);
        Path file = workDir.toRealPath().resolve(".lock");
        if (!LOCKED_IN_THIS_JVM.add(file)) {
            throw inUse(dataDir, file);
        }
        try {
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
            if (lock == null) {
                channel.close();
                throw inUse(dataDir, file);
            }
            return new DataDirLock(file, channel, lock);
        } catch (IOException | RuntimeException e) {
            LOCKED_IN_THIS_JVM.remove(file);
            throw e;
        }
    }

    private static IllegalStateException inUse(Path dataDir, Path file) {
        return new IllegalStateException(
                "Data folder " + dataDir + " (config key '" + LakeSyncOptions.DATA_DIR.key() + "') is in use by "
                        + "another lakesync tiering engine (it holds " + file + "). Stop that one, or give this "
                        + "instance its own '" + LakeSyncOptions.DATA_DIR.key() + "'.");
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
            LOCKED_IN_THIS_JVM.remove(file);
        }
    }
}
