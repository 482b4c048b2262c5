package io.lakesync.tiering;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.fluss.tiering.FlussTieringCoordinator;
import io.lakesync.fluss.tiering.HeartbeatRequest;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.tiering.lake.LakeSnapshotCommitter;
import io.lakesync.tiering.round.CommitRefusedException;
import io.lakesync.tiering.round.FencedRoundException;
import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.tiering.round.RoundStage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.fluss.fs.FsPath;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.Snapshot;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;

/**
 * The fence cannot be passed late: instance A stalls right after its fence, the coordinator hands the table to
 * instance B (A's tiering is reported failed, as after A's heartbeat timeout), B tiers and commits; when A
 * wakes up, Paimon refuses its commit, A deletes its files and prepared offsets file, and the lake holds every
 * row exactly once. A round prepares its offsets file while its fence is checked, so a round that fails the fence
 * has prepared one too: it is deleted.
 */
class LateCommitFenceTest extends TieringTestBase {

    @Test
    void ownerStalledPastItsFenceCannotLandItsCommit() throws Exception {
        TablePath path = thousandIds("stalled_owner");

        try (Stalling a = new Stalling("stalling-a", RoundStage.FENCED)) {
            TableAssignment heldByA = a.stalledAndTakenAway();

            try (TieringService b = startService("taking-over-b")) {
                awaitTiered(path);
            }
            long snapshotsBefore = lake.load(path).snapshotManager().latestSnapshotId();

            a.wakeUp.countDown();
            eventually(SYNC_TIMEOUT, () -> assertThat(a.failures).isNotEmpty());
            assertThat(a.failures).hasSize(1);
            assertThat(a.failures.get(0)).isInstanceOf(CommitRefusedException.class)
                    .hasMessageContaining("landed after this round's fence");
            assertThat(lake.load(path).snapshotManager().latestSnapshotId()).isEqualTo(snapshotsBefore);
            // A prepares its offsets file while its fence is checked, so it exists before B's; only B's stays.
            assertOnlyCommittedOffsetsFile(path, heldByA.tableId(), "A's prepared offsets file is deleted");
        }

        List<Long> lakeIds = readLake(path, "id").stream().map(r -> (Long) r.get(0)).toList();
        assertThat(lakeIds).hasSize(1000).doesNotHaveDuplicates();
        FileStoreTable table = lake.load(path);
        long tieringSnapshots = 0;
        for (long id = 1; id <= table.snapshotManager().latestSnapshotId(); id++) {
            Snapshot snapshot = table.snapshotManager().snapshot(id);
            if (LakeSnapshotCommitter.COMMIT_USER.equals(snapshot.commitUser())) {
                tieringSnapshots++;
            }
        }
        assertThat(tieringSnapshots).as("only B's round landed").isEqualTo(1);
        // A's data files were deleted: every data file on disk belongs to the table.
        long referenced = table.newReadBuilder().newScan().plan().splits().stream()
                .mapToLong(s -> ((org.apache.paimon.table.source.DataSplit) s).dataFiles().size())
                .sum();
        assertThat(dataFilesOnDisk(path)).isEqualTo(referenced);
    }

    @Test
    void roundFencedAfterWritingLeavesNoOffsetsFile() throws Exception {
        TablePath path = thousandIds("fenced_after_write");

        try (Stalling service = new Stalling("fenced-after-write", RoundStage.DATA_WRITTEN)) {
            // Taken back while the round has its files written, before its fence.
            TableAssignment held = service.stalledAndTakenAway();
            service.wakeUp.countDown();

            eventually(SYNC_TIMEOUT, () -> assertThat(service.failures).isNotEmpty());
            assertThat(service.failures.get(0)).isInstanceOf(FencedRoundException.class);
            // Handed out again, the table is tiered by a later round.
            awaitTiered(path);
            eventually(SYNC_TIMEOUT, () -> assertOnlyCommittedOffsetsFile(
                    path, held.tableId(), "the fenced round's prepared offsets file is deleted"));
        }
        assertThat(readLake(path, "id").stream().map(r -> (Long) r.get(0)).toList())
                .hasSize(1000)
                .doesNotHaveDuplicates();
    }

    /** A log table holding ids 0 to 999, handed out within a second. */
    private static TablePath thousandIds(String table) throws Exception {
        TablePath path = TablePath.of("fluss", table);
        createTable(path, idTable(1, "1s"));
        append(path, ids(0, 1000));
        return path;
    }

    /** A one-worker service whose first round stops at a stage until woken up; it records its round failures. */
    private static final class Stalling implements AutoCloseable {
        final CompletableFuture<TableAssignment> stalled = new CompletableFuture<>();
        final CountDownLatch wakeUp = new CountDownLatch(1);
        final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        final TieringService service;

        Stalling(String instance, RoundStage stage) throws Exception {
            RoundHooks stallAt = (reached, assignment) -> {
                if (reached == stage && stalled.complete(assignment)) {
                    wakeUp.await(SYNC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                }
            };
            TieringListener listener = new TieringListener() {
                @Override
                public void roundFailed(TableAssignment assignment, Throwable cause, FailureKind kind, Duration retryIn) {
                    failures.add(cause);
                }
            };
            service = new TieringService(
                    serviceConfig(instance, Map.of("tiering.workers", "1")), listener, stallAt, Clock.systemUTC());
            service.start();
        }

        /**
         * Waits for the stall, then does what the coordinator does when the holder's heartbeats stop for 2
         * minutes, without the wait: reports the table's tiering failed, so it is handed out again.
         */
        TableAssignment stalledAndTakenAway() throws Exception {
            TableAssignment held = stalled.get(SYNC_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            FlussTieringCoordinator coordinator = FlussTieringCoordinator.of(connection);
            int coordinatorEpoch = coordinator.heartbeat(HeartbeatRequest.registration(), 0).coordinatorEpoch();
            coordinator.heartbeat(
                    new HeartbeatRequest(List.of(), List.of(), Set.of(), List.of(held.epoch()), false), coordinatorEpoch);
            return held;
        }

        @Override
        public void close() throws Exception {
            service.close();
        }
    }

    /** Of the table's offsets files, only the one its newest tiering snapshot records is left. */
    private static void assertOnlyCommittedOffsetsFile(TablePath path, long tableId, String description)
            throws Exception {
        String committed =
                new LakeSnapshotCommitter(lake.load(path), false).latestTieringSnapshot().orElseThrow().offsetsPath();
        assertThat(offsetsFiles(tableId))
                .as(description)
                .map(p -> p.getFileName().toString())
                .containsExactly(new FsPath(committed).getName());
    }

    private static Set<Path> offsetsFiles(long tableId) throws Exception {
        try (Stream<Path> files = Files.walk(cluster.dataDir())) {
            return Set.copyOf(files.filter(p -> p.toString().endsWith(".offsets")
                            && p.getParent().getParent().getFileName().toString().endsWith("-" + tableId))
                    .toList());
        }
    }

    private static long dataFilesOnDisk(TablePath path) throws Exception {
        Path folder = cluster.warehouse().resolve(path.getDatabaseName() + ".db").resolve(path.getTableName());
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(p -> p.getParent().getFileName().toString().startsWith("bucket-")).count();
        }
    }
}
