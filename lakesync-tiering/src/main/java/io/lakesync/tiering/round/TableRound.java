package io.lakesync.tiering.round;

import io.lakesync.tiering.coordinator.HeartbeatRequest;
import io.lakesync.tiering.coordinator.HeartbeatResponse;
import io.lakesync.tiering.coordinator.LakeSnapshotCommit;
import io.lakesync.tiering.coordinator.TableAssignment;
import io.lakesync.tiering.lake.LakeCommitOutcome;
import io.lakesync.tiering.lake.LakeSnapshotCommitter;
import io.lakesync.tiering.lake.LakeTableCheck;
import io.lakesync.tiering.lake.LakeTableWriter;
import io.lakesync.tiering.lake.TieringSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.exception.ApiException;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One tiering round of one table, from the offsets the lake holds to the high watermark seen at the start.
 *
 * <pre>
 *  reconcile ──► plan ──► read + write (bucket groups in parallel) ──► fence ──► prepare offsets
 *      │                                                                              │
 *      │ Paimon has a tiering snapshot the coordinator                                ▼
 *      │ does not know (a crash between the two commits):            Paimon commit (fluss-offsets = file)
 *      └─ register it first, then plan from it                                        │
 *                                                                                     ▼
 *                                                                  coordinator commit (+ tablet offsets)
 * </pre>
 *
 * <p>Fencing, just before the Paimon commit: the table id is unchanged, the coordinator still accepts this
 * round's tiering epoch, and Paimon's newest tiering snapshot is still the one the round started from. So
 * two instances can never both commit a round, which Fluss's own job does not guarantee (apache/fluss#2648).
 */
public final class TableRound {

    private static final Logger LOG = LoggerFactory.getLogger(TableRound.class);

    private final TableAssignment assignment;
    private final RoundEnvironment env;
    private final RoundControl control;
    private final Admin admin;

    public TableRound(TableAssignment assignment, RoundEnvironment env, RoundControl control) {
        this.assignment = assignment;
        this.env = env;
        this.control = control;
        this.admin = env.connection().getAdmin();
    }

    public RoundResult run() throws Exception {
        Instant startedAt = env.clock().instant();
        TableInfo tableInfo = currentTableInfo(admin.getTableInfo(assignment.tablePath()));
        control.limitDuration(tableInfo.getTableConfig().getDataLakeFreshness());
        FileStoreTable lakeTable = env.lakeTables().load(assignment.tablePath());
        LakeTableCheck.check(tableInfo, lakeTable);
        LakeSnapshotCommitter committer =
                new LakeSnapshotCommitter(lakeTable, tableInfo.getTableConfig().isDataLakeAutoExpireSnapshot());

        Optional<TieringSnapshot> lakeBase = committer.latestTieringSnapshot();
        LakeSnapshot known = new LakeSnapshotReconciler(admin, env.coordinator()).reconcile(tableInfo, lakeTable, lakeBase);
        Map<TableBucket, Long> tieredOffsets = known == null ? Map.of() : known.getTableBucketsOffset();
        List<BucketRange> ranges = new RoundPlanner(admin).plan(tableInfo, tieredOffsets);
        env.hooks().reached(RoundStage.PLANNED, assignment);
        if (ranges.isEmpty()) {
            return RoundResult.empty(assignment, startedAt, since(startedAt));
        }

        WriteOutcome written = readAndWrite(tableInfo, lakeTable, ranges);
        env.hooks().reached(RoundStage.DATA_WRITTEN, assignment);
        Map<TableBucket, Long> endOffsets = new HashMap<>();
        Map<TableBucket, Long> maxTimestamps = new HashMap<>();
        for (BucketProgress bucket : written.buckets) {
            if (bucket.advanced()) {
                endOffsets.put(bucket.range().bucket(), bucket.tieredEndOffset());
                maxTimestamps.put(bucket.range().bucket(), bucket.maxTimestamp());
            }
        }
        if (endOffsets.isEmpty() || written.messages.isEmpty()) {
            return new RoundResult(
                    assignment, startedAt, since(startedAt), null, written.forceFinished, written.buckets, 0, 0);
        }

        try {
            checkStillOwner(committer, lakeBase);
        } catch (FencedRoundException e) {
            committer.abort(written.messages);
            throw e;
        }
        String offsetsPath =
                env.coordinator().prepareLakeSnapshot(assignment.tableId(), assignment.tablePath(), endOffsets);
        long snapshotId = commitToLake(committer, written.messages, offsetsPath);
        env.hooks().reached(RoundStage.LAKE_COMMITTED, assignment);
        env.coordinator()
                .commitLakeSnapshot(
                        new LakeSnapshotCommit(assignment.tableId(), snapshotId, offsetsPath, endOffsets, maxTimestamps));
        env.hooks().reached(RoundStage.COORDINATOR_COMMITTED, assignment);
        int files = 0;
        long bytes = 0;
        for (CommitMessage message : written.messages) {
            DataIncrement increment = ((CommitMessageImpl) message).newFilesIncrement();
            for (DataFileMeta file : increment.newFiles()) {
                files++;
                bytes += file.fileSize();
            }
            for (DataFileMeta file : increment.changelogFiles()) {
                files++;
                bytes += file.fileSize();
            }
        }
        return new RoundResult(
                assignment, startedAt, since(startedAt), snapshotId, written.forceFinished, written.buckets, files, bytes);
    }

    private TableInfo currentTableInfo(CompletableFuture<TableInfo> request) throws Exception {
        TableInfo info = unwrap(request::get);
        if (info.getTableId() != assignment.tableId()) {
            throw new FencedRoundException(
                    "Table " + assignment.tablePath() + " was dropped and re-created (id " + assignment.tableId()
                            + " is now " + info.getTableId() + "); the round for the old table is abandoned.");
        }
        return info;
    }

    private WriteOutcome readAndWrite(TableInfo tableInfo, FileStoreTable lakeTable, List<BucketRange> ranges)
            throws Exception {
        int groups = Math.max(1, Math.min(env.bucketParallelism(), ranges.size()));
        List<List<BucketRange>> split = new ArrayList<>();
        for (int i = 0; i < groups; i++) {
            split.add(new ArrayList<>());
        }
        for (int i = 0; i < ranges.size(); i++) {
            split.get(i % groups).add(ranges.get(i));
        }
        boolean autoCompaction = tableInfo.getTableConfig().isDataLakeAutoCompaction();
        List<Future<BucketGroupReader.GroupResult>> futures = new ArrayList<>();
        List<LakeTableWriter> writers = new ArrayList<>();
        RoundControl groupsControl = control.child();
        try (Table table = env.connection().getTable(assignment.tablePath())) {
            for (List<BucketRange> group : split) {
                LakeTableWriter writer = new LakeTableWriter(lakeTable, autoCompaction, env.ioTmpDir());
                writers.add(writer);
                BucketGroupReader reader = new BucketGroupReader(table, writer, group, groupsControl);
                futures.add(env.readerThreads().submit(reader::read));
            }
            WriteOutcome outcome = new WriteOutcome();
            Exception failure = null;
            for (Future<BucketGroupReader.GroupResult> future : futures) {
                try {
                    BucketGroupReader.GroupResult result = future.get();
                    outcome.buckets.addAll(result.buckets());
                    outcome.messages.addAll(result.messages());
                    outcome.forceFinished |= result.forceFinished();
                } catch (ExecutionException e) {
                    // Stop the sibling groups too: the round fails as a whole.
                    groupsControl.cancel("a bucket group of " + assignment.tablePath() + " failed");
                    Exception cause = e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
                    // Siblings stopped by this very failure report it as fencing; keep the real cause.
                    if (failure == null || failure instanceof FencedRoundException) {
                        failure = cause;
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
            return outcome;
        } finally {
            for (LakeTableWriter writer : writers) {
                try {
                    writer.close();
                } catch (Exception e) {
                    LOG.debug("Closing a lake writer of {} failed", assignment.tablePath(), e);
                }
            }
        }
    }

    private void checkStillOwner(LakeSnapshotCommitter committer, Optional<TieringSnapshot> lakeBase)
            throws Exception {
        control.throwIfCancelled();
        // Both questions at once; the table's identity is judged first, as a reason to stop it is the clearer.
        CompletableFuture<TableInfo> tableInfoRequest = admin.getTableInfo(assignment.tablePath());
        HeartbeatResponse response =
                env.coordinator()
                        .heartbeat(HeartbeatRequest.renew(assignment.epoch()), env.coordinatorEpoch().getAsInt());
        currentTableInfo(tableInfoRequest);
        Optional<ApiException> error = response.errorFor(assignment.tableId());
        if (error.isPresent()) {
            throw new FencedRoundException(
                    "The coordinator no longer gives " + assignment + " to this instance: " + error.get().getMessage(),
                    error.get());
        }
        Optional<Long> baseId = lakeBase.map(TieringSnapshot::snapshotId);
        Optional<Long> nowId = committer.latestTieringSnapshot().map(TieringSnapshot::snapshotId);
        if (!baseId.equals(nowId)) {
            throw new FencedRoundException(
                    "Another tiering commit landed in " + assignment.tablePath() + " during this round (snapshot "
                            + nowId.orElse(null) + ", round started from " + baseId.orElse(null) + ").");
        }
    }

    private long commitToLake(LakeSnapshotCommitter committer, List<CommitMessage> messages, String offsetsPath)
            throws Exception {
        LakeCommitOutcome outcome = committer.commit(messages, offsetsPath);
        if (outcome instanceof LakeCommitOutcome.Committed committed) {
            return committed.snapshotId();
        }
        if (outcome instanceof LakeCommitOutcome.RetryableFailure failure) {
            committer.abort(messages);
            throw failure.cause();
        }
        throw new UnknownCommitOutcomeException(
                "The Paimon commit of " + assignment.tablePath() + " may or may not have landed; "
                        + "the next round will find out",
                ((LakeCommitOutcome.Unknown) outcome).cause());
    }

    private Duration since(Instant start) {
        return Duration.between(start, env.clock().instant());
    }

    private static <T> T unwrap(java.util.concurrent.Callable<T> call) throws Exception {
        try {
            return call.call();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof Exception ? (Exception) cause : e;
        }
    }

    private static final class WriteOutcome {
        final List<BucketProgress> buckets = new ArrayList<>();
        final List<CommitMessage> messages = new ArrayList<>();
        boolean forceFinished;
    }
}
