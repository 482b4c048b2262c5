package io.lakesync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Secrets given as {@code @FILE}, in the YAML file and on the command line, and never repeated in an error. */
class FileReferencesTest {

    @TempDir Path tempDir;

    private Path file(String name, String content) throws IOException {
        Path file = tempDir.resolve(name);
        Files.writeString(file, content);
        return file;
    }

    @Test
    void valuesAreReadFromTheFilesTheyName() throws IOException {
        Path tokens = file("auth-tokens", "ops:owner:0123456789abcdef0123\n");
        Path s3Secret = file("s3-secret-key", "s3-secret-value\r\n");
        Path sasl = file("sasl-password", "sasl-secret-value");
        Path config = file("lakesync.yaml", String.join("\n",
                "auth.tokens: '@" + tokens + "'",
                "datalake.paimon:",
                "  s3.secret-key: '@" + s3Secret + "'",
                "fluss.client.security.sasl.password: '@" + sasl + "'",
                ""));
        Path dbPassword = file("state-password", "db-secret-value\n\n");

        LakeSyncConfig loaded = LakeSyncConfig.load(config, Map.of("state.jdbc-password", "@" + dbPassword));

        assertThat(loaded.get(LakeSyncOptions.AUTH_TOKENS).value()).isEqualTo("ops:owner:0123456789abcdef0123");
        assertThat(loaded.get(LakeSyncOptions.STATE_JDBC_PASSWORD).value()).isEqualTo("db-secret-value");
        assertThat(loaded.lakeCatalogOptions()).containsEntry("s3.secret-key", "s3-secret-value");
        assertThat(loaded.flussClientOptions()).containsEntry("client.security.sasl.password", "sasl-secret-value");
    }

    @Test
    void theCommandLineOverridesAFileReferenceOfTheYaml() throws IOException {
        Path config = file("lakesync.yaml", "state.jdbc-user: '@" + file("user", "from-file") + "'\n");
        LakeSyncConfig loaded = LakeSyncConfig.load(config, Map.of("state.jdbc-user", "inline"));
        assertThat(loaded.get(LakeSyncOptions.STATE_JDBC_USER)).isEqualTo("inline");
    }

    @Test
    void aMissingFileIsOneLineNamingTheKeyAndThePath() throws IOException {
        Path missing = tempDir.resolve("secrets/auth-tokens");
        Path config = file("lakesync.yaml", "auth.tokens: '@" + missing + "'\n");
        assertThatThrownBy(() -> LakeSyncConfig.load(config, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Cannot read config key 'auth.tokens' from file " + missing + " (given as '@" + missing
                        + "' in " + config + "): there is no such file; mount it there or correct the path.");
    }

    @Test
    void aFolderInsteadOfAFileIsNamedOnTheCommandLine() {
        assertThatThrownBy(() -> LakeSyncConfig.load(null, Map.of("datalake.paimon.jdbc.password", "@" + tempDir)))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Cannot read config key 'datalake.paimon.jdbc.password' from file " + tempDir
                        + " (given as '@" + tempDir + "' in command line): cannot read it (a folder); give a "
                        + "file lakesync may read, holding only the value.");
    }

    @Test
    void anInvalidValueReadFromAFileIsNotRepeated() throws IOException {
        Map<String, String> readFromFiles =
                Map.of("service.port", "not-a-port-but-a-secret", "datalake.format", "iceberg");
        for (Map.Entry<String, String> entry : readFromFiles.entrySet()) {
            Path value = file(entry.getKey(), entry.getValue());
            assertThatThrownBy(() -> LakeSyncConfig.load(null, Map.of(entry.getKey(), "@" + value)))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("Invalid value (not shown: a secret or read from a file) for config key '"
                            + entry.getKey() + "'")
                    .hasMessageNotContaining(entry.getValue());
        }
    }

    @Test
    void anEmptyValueReadFromAFileIsNamedOnce() throws IOException {
        Path empty = file("workers", "\n");
        assertThatThrownBy(() -> LakeSyncConfig.load(null, Map.of("tiering.workers", "@" + empty)))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Invalid value (not shown: a secret or read from a file) for config key "
                        + "'tiering.workers' in command line: ")
                .satisfies(e -> assertThat(e.getMessage().split("not shown", -1)).hasSize(2));
    }

    @Test
    void secretKeysAreTheirPasswordOptionsAndPassthroughKeysNamedLikeSecrets() {
        assertThat(LakeSyncOptions.isSecret("auth.tokens")).isTrue();
        assertThat(LakeSyncOptions.isSecret("state.jdbc-password")).isTrue();
        assertThat(LakeSyncOptions.isSecret("datalake.paimon.jdbc.password")).isTrue();
        assertThat(LakeSyncOptions.isSecret("datalake.paimon.s3.access-key")).isTrue();
        assertThat(LakeSyncOptions.isSecret("datalake.paimon.s3.secret-key")).isTrue();
        assertThat(LakeSyncOptions.isSecret("fluss.client.security.sasl.password")).isTrue();
        assertThat(LakeSyncOptions.isSecret("metrics.require-token")).isFalse();
        assertThat(LakeSyncOptions.isSecret("datalake.paimon.jdbc.user")).isFalse();
        assertThat(LakeSyncOptions.isSecret("state.jdbc-user")).isFalse();
    }
}
