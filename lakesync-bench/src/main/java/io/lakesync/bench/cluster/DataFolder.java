package io.lakesync.bench.cluster;

import io.lakesync.folder.Folders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.annotation.Nullable;

/**
 * The folder a benchmark or soak keeps its cluster, services and logs in: the one the user named (new or empty,
 * kept), or a temporary one (removed afterwards unless asked to keep it).
 */
public final class DataFolder {

    /** Work done in the folder. */
    @FunctionalInterface
    public interface Work<T> {
        T runIn(Path folder) throws Exception;
    }

    private DataFolder() {}

    public static <T> T run(@Nullable Path requested, boolean keep, String tempPrefix, Consumer<String> progress,
            Work<T> work) throws Exception {
        Path folder;
        if (requested == null) {
            folder = Files.createTempDirectory(tempPrefix);
        } else {
            folder = requested.toAbsolutePath();
            if (Files.isDirectory(folder) && !isEmpty(folder)) {
                throw new IllegalArgumentException("--data-dir " + folder + " is not empty; give a new or empty "
                        + "folder, every run starts from a fresh cluster.");
            }
            Files.createDirectories(folder);
        }
        try {
            return work.runIn(folder);
        } finally {
            if (requested == null && !keep) {
                Folders.deleteRecursively(folder);
            } else {
                progress.accept("Data and logs kept in " + folder);
            }
        }
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }
}
