package io.lakesync.cli;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The URL a running local stack serves on, kept in its data folder while it runs, so that {@code lakesync status}
 * and friends find a stack started with {@code --port 0} (any free port) without {@code --url}. A stack that was
 * killed leaves the file behind; the next start on the folder replaces it.
 */
final class LocalServiceUrl {

    static final String FILE_NAME = "service.url";

    private LocalServiceUrl() {}

    /** Records {@code url} for {@code dataDir}, atomically: a reader never sees half a URL. */
    static void write(Path dataDir, String url) throws IOException {
        Path temp = Files.createTempFile(dataDir, FILE_NAME, ".tmp");
        try {
            Files.writeString(temp, url + "\n", StandardCharsets.UTF_8);
            Files.move(temp, dataDir.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** The URL the stack in {@code dataDir} serves on, or null if none runs there (or it wrote nothing usable). */
    static URI read(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            URI url = URI.create(Files.readString(file, StandardCharsets.UTF_8).trim());
            return url.isAbsolute() ? url : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static void delete(Path dataDir) throws IOException {
        Files.deleteIfExists(dataDir.resolve(FILE_NAME));
    }
}
