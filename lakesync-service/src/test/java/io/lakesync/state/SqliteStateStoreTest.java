package io.lakesync.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state contract on the default database, an SQLite file under {@code data.dir}. */
class SqliteStateStoreTest extends StateStoreContract {

    @TempDir
    Path dataDir;

    @Override
    protected StateStore openFresh() {
        return reopen();
    }

    @Override
    protected StateStore reopen() {
        return StateStore.open(LakeSyncConfig.fromMap(Map.of("data.dir", dataDir.toString()), "test"), clock);
    }

    @Test
    void defaultsToAnSqliteFileUnderTheDataDir() {
        assertThat(store.kind()).isEqualTo(DatabaseKind.SQLITE);
        assertThat(store.jdbcUrl()).isEqualTo("jdbc:sqlite:" + dataDir.resolve("lakesync.db"));
        assertThat(dataDir.resolve("lakesync.db")).isRegularFile();
    }

    @Test
    void concurrentWritersWaitForEachOtherInsteadOfFailing() throws Exception {
        ExecutorService writers = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int writer = 0; writer < 4; writer++) {
                done.add(writers.submit(() -> {
                    for (int i = 0; i < 25; i++) {
                        // Read then write in one transaction: the pattern that fails with SQLITE_BUSY when
                        // transactions start deferred.
                        store.write(sql -> {
                            sql.query("SELECT COUNT(*) FROM audit_log", row -> row.getLong(1));
                            sql.audit("writer", "test.change", "t", "");
                            return null;
                        });
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            writers.shutdownNow();
        }

        assertThat(store.auditLog().recent(1000)).hasSize(100);
    }

    @Test
    void anUnsupportedUrlNamesTheOption() {
        LakeSyncConfig config = LakeSyncConfig.fromMap(Map.of("state.jdbc-url", "jdbc:mysql://db/lakesync"), "test");

        assertThatThrownBy(() -> StateStore.open(config, clock))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'jdbc:mysql://db/lakesync'")
                .hasMessageContaining("'state.jdbc-url'")
                .hasMessageContaining("jdbc:postgresql://host:port/database");
    }

    @Test
    void aDataDirThatCannotBeCreatedNamesTheOption() throws Exception {
        Path blocked = Files.writeString(dataDir.resolve("a-file"), "not a folder").resolve("state");
        LakeSyncConfig config = LakeSyncConfig.fromMap(Map.of("data.dir", blocked.toString()), "test");

        assertThatThrownBy(() -> StateStore.open(config, clock))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'data.dir'")
                .hasMessageContaining(blocked.toString());
    }

    @Test
    void aDatabaseThatIsNotSqliteCannotBeMigrated() throws Exception {
        Files.writeString(dataDir.resolve("garbage.db"), "this is not an SQLite database, just text ".repeat(100));

        assertThatThrownBy(() -> StateStore.open("jdbc:sqlite:" + dataDir.resolve("garbage.db"), "", "", clock))
                .isInstanceOf(StateStoreException.class)
                .hasMessageContaining("garbage.db")
                .hasMessageContaining("state.jdbc-url");
    }
}
