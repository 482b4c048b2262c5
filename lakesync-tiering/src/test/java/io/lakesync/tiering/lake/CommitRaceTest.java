package io.lakesync.tiering.lake;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.local.ClusterTest;
import io.lakesync.local.S3Server;
import java.nio.file.Path;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two committers racing for one snapshot of a lake table on each storage one instance may use alone: the local
 * disk (atomic create) and an object store through a filesystem catalog, where only lakesync's in-process lock keeps
 * the commits of one process apart. (Across processes on an object store, see the JDBC-catalog race in the service
 * module's tests.)
 */
@ClusterTest
class CommitRaceTest {

    private static final TablePath PATH = TablePath.of("lake", "raced");
    private static final int RACES = 2;

    @TempDir
    Path dir;

    @Test
    void onTheLocalDiskOneCommitLandsPerRaceAndTheOtherIsRefusedAndCleanedUp() throws Exception {
        Map<String, String> options = Map.of("warehouse", dir.resolve("warehouse").toString());
        try (LakeTables lake = new LakeTables(options); LakeTables otherCatalog = new LakeTables(options)) {
            assertThat(lake.commitSafety()).isEqualTo(CommitSafety.ATOMIC_STORAGE);
            CommitRace.createTable(lake, PATH);
            CommitRace.runAndCheck(lake, otherCatalog, PATH, RACES);
        }
    }

    @Test
    void onAnObjectStoreWithoutACatalogLockTheCommitsOfOneProcessTakeTurns() throws Exception {
        try (S3Server s3 = S3Server.start(dir.resolve("s3"), 0)) {
            s3.createBucket("lake");
            Map<String, String> options = s3.catalogOptions("lake", "warehouse");
            try (LakeTables lake = new LakeTables(options); LakeTables otherCatalog = new LakeTables(options)) {
                assertThat(lake.commitSafety()).isEqualTo(CommitSafety.IN_PROCESS_LOCK_ONLY);
                CommitRace.createTable(lake, PATH);
                CommitRace.runAndCheck(lake, otherCatalog, PATH, RACES);
            }
        }
    }
}
