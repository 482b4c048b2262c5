package io.lakesync.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The owner token of a local stack started without {@code auth.tokens}: made once, kept in the data folder
 * (readable by its owner only), so {@code lakesync status} and friends on the same machine find it.
 */
final class LocalToken {

    static final String FILE_NAME = "local-owner.token";

    private LocalToken() {}

    static Path file(Path dataDir) {
        return dataDir.resolve(FILE_NAME);
    }

    /** The token in {@code dataDir}, made now if there is none yet. */
    static String getOrCreate(Path dataDir) throws IOException {
        Path file = file(dataDir);
        if (Files.isRegularFile(file)) {
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        }
        byte[] random = new byte[20];
        new SecureRandom().nextBytes(random);
        String token = HexFormat.of().formatHex(random);
        Files.createDirectories(dataDir);
        Files.writeString(file, token + "\n", StandardCharsets.UTF_8);
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException ignored) {
            // Not a POSIX file system: the folder's own permissions apply.
        }
        return token;
    }

    /** The token in {@code dataDir}, or null if the local stack never made one there. */
    static String read(Path dataDir) throws IOException {
        Path file = file(dataDir);
        return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8).trim() : null;
    }
}
