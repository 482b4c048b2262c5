package io.lakesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local owner token file on the real file system. */
class LocalTokenTest {

    @TempDir Path dataDir;

    @Test
    void tokenFileIsOwnerOnlyLeavesNoTempFileAndIsReusedOnceMade() throws Exception {
        Path folder = dataDir.resolve("new-data-dir");

        String token = LocalToken.getOrCreate(folder);

        Path file = LocalToken.file(folder);
        assertThat(token).matches("[0-9a-f]{40}");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file)).isEqualTo(token + "\n");
        try (var entries = Files.list(folder)) {
            assertThat(entries).as("no temporary file left behind").containsExactly(file);
        }
        assertThat(LocalToken.getOrCreate(folder)).isEqualTo(token);
        assertThat(LocalToken.read(folder)).isEqualTo(token);
    }

    @Test
    void noTokenIsReadWhereNoneWasMade() throws Exception {
        assertThat(LocalToken.read(dataDir)).isNull();
    }
}
