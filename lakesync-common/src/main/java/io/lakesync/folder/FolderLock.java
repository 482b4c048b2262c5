package io.lakesync.folder;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * An exclusive lock on a file of a folder, against other processes and this one. The operating system releases
 * it when the process dies, so a crash never leaves it behind. Holders of this JVM are told apart before the file
 * is opened: on Linux, closing any descriptor of a file drops every lock this process holds on it, so a refused
 * second holder must not open it at all.
 */
public final class FolderLock implements AutoCloseable {

    private static final Set<Path> LOCKED_IN_THIS_JVM = ConcurrentHashMap.newKeySet();

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private FolderLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Locks {@code folder/fileName}, creating the folder if need be; when someone holds it already, throws what
     * {@code inUse} makes of the lock file's path.
     */
    public static FolderLock acquire(Path folder, String fileName, Function<Path, RuntimeException> inUse)
            throws IOException {
        Files.createDirectories(folder);
        Path file = folder.toRealPath().resolve(fileName);
        if (!LOCKED_IN_THIS_JVM.add(file)) {
            throw inUse.apply(file);
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
                throw inUse.apply(file);
            }
            return new FolderLock(file, channel, lock);
        } catch (IOException | RuntimeException e) {
            LOCKED_IN_THIS_JVM.remove(file);
            throw e;
        }
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
