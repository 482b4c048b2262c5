package io.lakesync.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyncWaitTest {

    @Test
    void syncedWhenEveryWrittenBucketIsInTheLake() {
        assertThat(SyncWait.caughtUp(Map.of(0, 10L, 1, 5L), Map.of(0, 10L, 1, 5L))).isTrue();
        assertThat(SyncWait.caughtUp(Map.of(0, 10L, 1, 0L), Map.of(0, 10L))).as("empty bucket").isTrue();
        assertThat(SyncWait.caughtUp(Map.of(0, 10L, 1, 5L), Map.of(0, 10L, 1, 4L))).isFalse();
        assertThat(SyncWait.caughtUp(Map.of(0, 10L), Map.of())).as("no lake snapshot yet").isFalse();
    }

    @Test
    void pollsLessOftenWhileManyTablesArePending() {
        assertThat(SyncWait.pollMillis(1)).isEqualTo(SyncWait.POLL_MILLIS);
        assertThat(SyncWait.pollMillis(20)).isEqualTo(SyncWait.POLL_MILLIS);
        assertThat(SyncWait.pollMillis(200)).isEqualTo(500);
    }

    @Test
    void aTableCountsAsCommittedOnceItsSnapshotFolderAppearsOrChanges(@TempDir Path warehouse) throws Exception {
        TablePath fresh = TablePath.of("bench", "fresh");
        TablePath written = TablePath.of("bench", "written");
        TablePath unresolved = TablePath.of("bench", "unresolved");
        Path freshFolder = warehouse.resolve("fresh/snapshot");
        Path writtenFolder = Files.createDirectories(warehouse.resolve("written/snapshot"));
        Files.setLastModifiedTime(writtenFolder, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));

        LakeCommitWatch watch = LakeCommitWatch.start(Map.of(fresh, freshFolder, written, writtenFolder));

        assertThat(watch.committedSinceStart(fresh)).isFalse();
        assertThat(watch.committedSinceStart(written)).isFalse();
        assertThat(watch.committedSinceStart(unresolved)).as("no folder known: always asked").isTrue();

        Files.createDirectories(freshFolder);
        Files.writeString(writtenFolder.resolve("snapshot-1"), "{}");
        assertThat(watch.committedSinceStart(fresh)).as("folder made by the first commit").isTrue();
        assertThat(watch.committedSinceStart(written)).as("a snapshot written into the folder").isTrue();

        Files.setLastModifiedTime(writtenFolder, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
        assertThat(watch.committedSinceStart(written)).as("stays committed").isTrue();
    }

    @Test
    void bucketsThatStartedPastTheBaseSnapshotAreCounted() {
        Map<Integer, Long> base = Map.of(0, 80L, 1, 70L, 2, 0L);
        assertThat(BackfillScenario.bucketsPast(Map.of(0, 80L, 1, 90L), base)).isEqualTo(1);
        assertThat(BackfillScenario.bucketsPast(Map.of(0, 80L, 1, 70L), base)).isZero();
        assertThat(BackfillScenario.bucketsPast(Map.of(3, 5L), base)).as("bucket without base snapshot").isZero();
    }
}
