package io.lakesync.local;

import io.lakesync.config.ConfigException;
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
 * Keeps a second local stack off a data folder. Two stacks on one folder run two ZooKeeper servers over the same
 * snapshot and log files and two Fluss clusters over the same remote and lake folders: each overwrites and
 * deletes what the other wrote (a restart after two overlapping stacks found a table's lake offsets file gone, and
 * its buckets got no leader). Taken before anything starts; the operating system releases it when the process
 * dies, so a crash never leaves it behind. A second stack of this JVM is refused before the file is opened: on
 * Linux, closing any descriptor of a file drops every lock the process holds on it.
 */
public final class LocalStackLock implements AutoCloseable {

    private static final String FILE_NAME = ".local-stack.lock";
    private static final Set<Path> LOCKED_IN_THIS_JVM = ConcurrentHashMap.newKeySet();

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private LocalStackLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /** Locks {@code dataDir}, creating it if need be, or fails naming the folder and its config key. */
    public static LocalStackLock acquire(Path dataDir) throws IOException {
        Files.createDirectories(dataDir);
        Path file = dataDir.toRealPath().resolve(FILE_NAME);
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
            return new LocalStackLock(file, channel, lock);
        } catch (IOException | RuntimeException e) {
            LOCKED_IN_THIS_JVM.remove(file);
            throw e;
        }
    }

    private static ConfigException inUse(Path dataDir, Path file) {
        return new ConfigException("Data folder " + dataDir + " (config key '" + LakeSyncOptions.DATA_DIR.key()
                + "') is in use by another local stack (it holds " + file + "). Stop that one first, or give this "
                + "one its own folder with --data-dir.");
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
