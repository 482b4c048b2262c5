package io.lakesync.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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

    /**
     * The token in {@code dataDir}, made now if there is none yet. A new token is written to a temporary file
     * created owner-only ({@code rw-------}) from the start, then moved into place atomically, so the token is never
     * readable by others, not even for a moment, and a reader never sees half a file.
     */
    static String getOrCreate(Path dataDir) throws IOException {
        Path file = file(dataDir);
        if (Files.isRegularFile(file)) {
            return readToken(file);
        }
        byte[] random = new byte[20];
        new SecureRandom().nextBytes(random);
        String token = HexFormat.of().formatHex(random);
        Files.createDirectories(dataDir);
        Path temp = ownerOnlyTempFile(dataDir);
        try {
            Files.writeString(temp, token + "\n", StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
        return token;
    }

    private static Path ownerOnlyTempFile(Path dir) throws IOException {
        try {
            return Files.createTempFile(dir, FILE_NAME, ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            // Not a POSIX file system: the folder's own permissions apply.
            return Files.createTempFile(dir, FILE_NAME, ".tmp");
        }
    }

    private static String readToken(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8).trim();
    }

    /** The token in {@code dataDir}, or null if the local stack never made one there. */
    static String read(Path dataDir) throws IOException {
        Path file = file(dataDir);
        return Files.isRegularFile(file) ? readToken(file) : null;
    }
}
