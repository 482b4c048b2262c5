package io.lakesync.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.local.ClusterTest;
import io.lakesync.local.S3Server;
import io.lakesync.server.LakeSyncServer;
import io.lakesync.state.DatabaseKind;
import io.lakesync.state.PostgresServer;
import io.lakesync.tiering.lake.CommitRace;
import io.lakesync.tiering.lake.CommitSafety;
import io.lakesync.tiering.lake.LakeTables;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several instances on one object-store lake: through Paimon's JDBC catalog on PostgreSQL (its lock spans
 * processes) two committers with catalogs of their own race for one snapshot and exactly one lands each time; the
 * same lake through a filesystem catalog, which locks nothing, is refused at start when the state is shared.
 */
@ClusterTest
class SharedLakeCommitsTest {

    @RegisterExtension static PostgresServer postgres = new PostgresServer();

    @TempDir
    static Path dir;

    private static S3Server s3;

    @BeforeAll
    static void startS3() throws Exception {
        s3 = S3Server.start(dir.resolve("s3"), 0);
        s3.createBucket("lake");
    }

    @AfterAll
    static void stopS3() throws Exception {
        s3.close();
    }

    @Test
    void twoCommittersOnAJdbcCatalogWithALockTakeTurnsOnS3() throws Exception {
        Map<String, String> options = new LinkedHashMap<>(s3.catalogOptions("lake", "jdbc-warehouse"));
        options.put("metastore", "jdbc");
        options.put("uri", postgres.newDatabase());
        options.put("jdbc.user", PostgresServer.SUPERUSER);
        options.put("jdbc.password", PostgresServer.PASSWORD);
        options.put("catalog-key", "race");
        options.put("lock.enabled", "true");
        // Paimon's waiter polls the lock row with a growing sleep of up to 8 s by default.
        options.put("lock-check-max-sleep", "100 ms");
        TablePath path = TablePath.of("lake", "raced");
        try (LakeTables first = new LakeTables(options); LakeTables second = new LakeTables(options)) {
            assertThat(first.commitSafety()).isEqualTo(CommitSafety.CATALOG_LOCK);
            CommitRace.createTable(first, path);
            CommitRace.runAndCheck(first, second, path, 2);
        }
    }

    @Test
    void aSharedStateOnAnUnlockedObjectStoreLakeIsRefusedAtStartNamingTheKeys() throws Exception {
        Map<String, String> settings = new HashMap<>();
        s3.catalogOptions("lake", "unlocked").forEach((k, v) -> settings.put("datalake.paimon." + k, v));
        settings.put("fluss.bootstrap.servers", "127.0.0.1:1");
        settings.put("data.dir", dir.resolve("refused").toString());
        settings.put("service.port", "0");
        settings.put("state.jdbc-url", postgres.newDatabase());
        settings.put("state.jdbc-user", PostgresServer.SUPERUSER);
        settings.put("state.jdbc-password", PostgresServer.PASSWORD);

        assertThatThrownBy(() -> LakeSyncServer.start(LakeSyncConfig.fromMap(settings, "test")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'state.jdbc-url' and 'datalake.paimon.metastore'")
                .hasMessageContaining("s3://lake/unlocked")
                .hasMessageContaining("datalake.paimon.metastore = jdbc")
                .hasMessageContaining("datalake.paimon.lock.enabled = true")
                .hasMessageNotContaining(s3.secretKey());
    }

    @Test
    void onlyASharedStateOnAnUnlockedObjectStoreIsRefused() {
        Map<String, String> lake = Map.of("warehouse", "s3://lake/w");
        SharedLakeCommits.check(DatabaseKind.SQLITE, CommitSafety.IN_PROCESS_LOCK_ONLY, lake);
        SharedLakeCommits.check(DatabaseKind.POSTGRESQL, CommitSafety.CATALOG_LOCK, lake);
        SharedLakeCommits.check(DatabaseKind.POSTGRESQL, CommitSafety.ATOMIC_STORAGE, lake);
        assertThatThrownBy(() -> SharedLakeCommits.check(
                        DatabaseKind.POSTGRESQL, CommitSafety.IN_PROCESS_LOCK_ONLY, lake))
                .isInstanceOf(ConfigException.class);
    }
}
