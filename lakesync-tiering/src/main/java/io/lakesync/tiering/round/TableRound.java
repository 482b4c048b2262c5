package io.lakesync.tiering.round;

import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.TableReads;
import io.lakesync.fluss.tiering.HeartbeatRequest;
import io.lakesync.fluss.tiering.HeartbeatResponse;
import io.lakesync.fluss.tiering.LakeSnapshotCommit;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.tiering.columnar.ArrowLogReader;
import io.lakesync.tiering.columnar.write.ColumnarWriters;
import io.lakesync.tiering.lake.LakeCommitOutcome;
import io.lakesync.tiering.lake.LakeReadability;
import io.lakesync.tiering.lake.LakeSnapshotCommitter;
import io.lakesync.tiering.lake.LakeTableCheck;
import io.lakesync.tiering.lake.LakeTableIncompatibleException;
import io.lakesync.tiering.lake.LakeTableKind;
import io.lakesync.tiering.lake.LakeTableWriter;
import io.lakesync.tiering.lake.LakeWriter;
import io.lakesync.tiering.lake.TieringSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import javax.annotation.Nullable;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.exception.ApiException;
import org.apache.fluss.fs.FsPath;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One tiering round of one table, from the offsets the lake holds to the high watermark seen at the start.
 *
 * <pre>
 *  reconcile        Paimon has a tiering snapshot the coordinator does not know (a crash between
 *      │            the two commits): register it first, then plan from it
 *      ▼
 *  catch up         deletion-vector tables whose readable snapshot lags: a compacted snapshot since the
 *      │            tiered one becomes readable ({@link ReadableSnapshotCatchUp})
 *      ▼
 *  plan             per bucket: the lake's offset → the high watermark now (asked for with the table
 *      │            info when the client's metadata shows the table's buckets, else while the lake
 *      │            table loads and the checkpoint is reconciled)
 *      ▼
 *  check layout     fresh Fluss and Paimon schemas; a lake changed outside Fluss blocks the table
 *      ▼
 *  read + write     bucket groups in parallel; the time budget starts here;    ─┐ any failure:
 *      ▼            an undecodable record stops only its bucket                  │ delete the
 *  fence            tiering epoch, newest tiering snapshot unchanged;            │ round's data
 *      ▼            meanwhile the coordinator writes the offsets file            │ files (and the
 *  prepare offsets  (deleted if the fence fails)                                ─┘ offsets file)
 *      ▼
 *  Paimon commit    conditional: refused if a tiering snapshot landed after the fence; refused or
 *      │            provably failed: delete data files and offsets file; unknown: leave all as is
 *      ▼
 *  coordinator      registers the snapshot (+ tablet server offsets), as readable too unless level-0 files
 *  commit           hide rows of a deletion-vector table; then a bucket stopped by an undecodable record
 *                   fails the round
 * </pre>
 *
 * <p>Fencing, just before the Paimon commit: the coordinator still accepts this round's tiering epoch (it
 * refuses a dropped or re-created table's once it processed the drop), and Paimon's newest tiering snapshot is
 * still the one the round started from. The
 * Paimon commit itself then only lands if no tiering snapshot landed after the fence, so an instance that
 * stalls between its fence and its commit (a GC pause, a frozen VM) past the coordinator's timeout cannot land
 * a range the table's next owner tiered meanwhile. Two instances never both commit a round, which Fluss's own
 * job does not guarantee (apache/fluss#2648).
 *
 * <p>Schemas: a Fluss {@code ADD COLUMN} alters the lake table first, then the Fluss schema. Every planned
 * record is read in a schema at least as new as its own (older records are padded with NULLs): the row path
 * reads the Fluss table (schema included) once the high watermarks it plans to are read; the columnar reader
 * reads in the round's first schema and hands back a batch in a newer one, whose row path then finds the schema
 * moved and has the round read again. The lake table used was loaded after a Fluss read of the schema read
 * in (the one loaded at the round's start while the schema is unchanged, else loaded again), so its schema is
 * at least as new. A record the client cannot decode stops its bucket only: the other buckets'
 * rows are committed, then the round fails with a {@link BadRecordException} naming bucket and offset.
 */
public final class TableRound {

    private static final Logger LOG = LoggerFactory.getLogger(TableRound.class);
    /** How long a lake ahead of the Fluss schema is given for Fluss to finish its ALTER. */
    private static final Duration ALTER_SETTLE = Duration.ofSeconds(3);
    private static final Duration ALTER_POLL = Duration.ofMillis(100);

    private final TableAssignment assignment;
    private final RoundEnvironment env;
    private final RoundControl control;
    private final RoundPhases phases;

    public TableRound(TableAssignment assignment, RoundEnvironment env, RoundControl control) {
        this.assignment = assignment;
        this.env = env;
        this.control = control;
        this.phases = new RoundPhases(env.clock());
    }

    /**
     * Runs the round; one that stopped on records in a newer schema than it read with (nothing of it committed)
     * is run once more, in that schema.
     */
    public RoundResult run() throws Exception {
        Instant startedAt = env.clock().instant();
        try {
            return runOnce(startedAt);
        } catch (NewerSchemaException e) {
            LOG.info("{}; reading the round again in the new schema", e.getMessage());
            return runOnce(startedAt);
        }
    }

    private RoundResult runOnce(Instant startedAt) throws Exception {
        // The coordinator's checkpoint is asked for with the table's info, not after it: one round trip less.
        CompletableFuture<TableInfo> infoRequest = tableInfoNow();
        CompletableFuture<LakeSnapshot> registeredRequest = env.fluss().latestLakeSnapshot(assignment.tablePath());
        RoundPlanner planner = new RoundPlanner(env.fluss());
        // A table without partitions has its high watermarks asked for with its info: its buckets come with the
        // client's metadata.
        CompletableFuture<Optional<List<RoundPlanner.PartitionEnds>>> endsBeforeInfo =
                onReaderThread(() -> planner.endOffsetsBeforeInfo(assignment.tablePath(), assignment.tableId()));
        TableInfo tableInfo = currentTableInfo(infoRequest);
        control.limitDuration(tableInfo.getTableConfig().getDataLakeFreshness());
        phases.ended("table info");
        env.hooks().reached(RoundStage.TABLE_READ, assignment);
        // Else, or if those were not the table's buckets or failed, they are asked for now, and come while the
        // lake table loads and the checkpoint is reconciled.
        CompletableFuture<List<RoundPlanner.PartitionEnds>> ends = endsBeforeInfo
                .handle((early, failure) -> failure == null && early.isPresent()
                                && RoundPlanner.fits(tableInfo, early.get())
                        ? CompletableFuture.completedFuture(early.get())
                        : onReaderThread(() -> planner.endOffsets(tableInfo)))
                .thenCompose(request -> request);
        // The table the round reads with (see openTable): the start's when the columnar reader reads the log, as
        // it sees each batch's schema; else asked for again as soon as the high watermarks are in.
        FlussClient columnarClient = columnarClient(tableInfo);
        CompletableFuture<TableInfo> readInfoRequest = columnarClient != null
                ? CompletableFuture.completedFuture(tableInfo)
                : ends.thenCompose(planned -> tableInfoNow());
        FileStoreTable lakeTable = env.lakeTables().load(assignment.tablePath());
        LakeSnapshotCommitter committer =
                new LakeSnapshotCommitter(lakeTable, tableInfo.getTableConfig().isDataLakeAutoExpireSnapshot());
        phases.ended("lake load");

        Optional<TieringSnapshot> lakeBase = committer.latestTieringSnapshot();
        LakeSnapshot known = new LakeSnapshotReconciler(env.fluss(), env.coordinator())
                .reconcile(tableInfo, lakeTable, lakeBase, registeredRequest);
        if (known != null && LakeReadability.compactsInRound(lakeTable)) {
            known = new ReadableSnapshotCatchUp(env.fluss(), env.coordinator())
                    .catchUp(tableInfo, lakeTable, committer, known, lakeBase);
        }
        phases.ended("reconcile");
        Map<TableBucket, Long> tieredOffsets = known == null ? Map.of() : known.getTableBucketsOffset();
        List<BucketRange> ranges = planner.plan(tableInfo, tieredOffsets, unwrap(ends::get));
        phases.ended("plan");
        env.hooks().reached(RoundStage.PLANNED, assignment);
        if (ranges.isEmpty()) {
            return RoundResult.empty(assignment, startedAt, since(startedAt), phases, LakeTableKind.of(lakeTable));
        }

        WriteOutcome written;
        try (TableReads table = openTable(readInfoRequest)) {
            FileStoreTable writeTable = checkedLakeTable(table.info(), tableInfo.getSchemaId(), lakeTable);
            control.startReading();
            boolean autoCompaction = tableInfo.getTableConfig().isDataLakeAutoCompaction()
                    || LakeReadability.compactsInRound(writeTable);
            phases.ended("open");
            RowPathSchemaCheck rowPathCheck = columnarClient == null
                    ? RowPathSchemaCheck.NONE
                    : new RowPathSchemaCheck(
                            () -> currentTableInfo(tableInfoNow()), tableInfo.getSchemaId());
            written = readAndWrite(table, rowPathCheck, columnarClient, autoCompaction, writeTable, ranges, committer);
        }
        phases.ended("read+write");
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
            committer.abort(written.messages);
            throwIfUnreadable(written);
            return new RoundResult(assignment, startedAt, since(startedAt), null, written.forceFinished,
                    written.buckets, 0, 0, phases, LakeTableKind.of(lakeTable));
        }

        long snapshotId = commit(committer, lakeTable, lakeBase, written.messages, endOffsets, maxTimestamps);
        throwIfUnreadable(written);
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
                assignment,
                startedAt,
                since(startedAt),
                snapshotId,
                written.forceFinished,
                written.buckets,
                files,
                bytes,
                phases,
                LakeTableKind.of(lakeTable));
    }

    /**
     * Fences, prepares the offsets file and commits to Paimon and then to the coordinator. The offsets file is
     * prepared while the fence is checked (one round trip less; preparing only writes a file the coordinator
     * does not yet know), and deleted when the fence fails. Until the Paimon commit is tried, any failure
     * deletes the round's data files; the commit itself cleans up only when it provably did not land.
     */
    private long commit(
            LakeSnapshotCommitter committer,
            FileStoreTable lakeTable,
            Optional<TieringSnapshot> lakeBase,
            List<CommitMessage> messages,
            Map<TableBucket, Long> endOffsets,
            Map<TableBucket, Long> maxTimestamps)
            throws Exception {
        long snapshotId;
        String offsetsPath;
        try {
            CompletableFuture<String> prepared = prepareOffsets(endOffsets);
            long fencedAt;
            try {
                fencedAt = checkStillOwner(committer, lakeBase);
                env.hooks().reached(RoundStage.FENCED, assignment);
                offsetsPath = unwrap(prepared::get);
                phases.ended("fence");
            } catch (Exception e) {
                prepared.thenAccept(this::deletePreparedOffsets);
                throw e;
            }
            snapshotId = commitToLake(committer, messages, offsetsPath, fencedAt);
            phases.ended("lake commit");
        } catch (Exception e) {
            if (!(e instanceof LakeCommitException)) {
                committer.abort(messages);
                throw e;
            }
            throw (Exception) e.getCause();
        }
        env.hooks().reached(RoundStage.LAKE_COMMITTED, assignment);
        boolean readable = LakeReadability.readable(lakeTable, snapshotId);
        if (!readable) {
            LOG.warn("Table {}: Paimon snapshot {} still has level-0 files (its compaction did not land), so it is "
                    + "registered as tiered only; union reads stay on the previous readable snapshot",
                    assignment.tablePath(), snapshotId);
        }
        env.coordinator()
                .commitLakeSnapshot(new LakeSnapshotCommit(
                        assignment.tableId(), snapshotId, offsetsPath, endOffsets, maxTimestamps, readable));
        phases.ended("coordinator commit");
        env.hooks().reached(RoundStage.COORDINATOR_COMMITTED, assignment);
        return snapshotId;
    }

    /**
     * The Fluss table the round reads with. Its schema must be at least as new as every planned record's, or
     * the records' new columns would be dropped. For the row path it comes from a table-info request issued once
     * the high watermarks were in. When the columnar reader reads the log, it is the round's first table info:
     * that reader hands back any batch in a newer schema, and the row path then asks for the table info again
     * ({@link RowPathSchemaCheck}) and stops the round if the schema moved, which {@link #run} then repeats.
     * (The planner's offsets request made the client's metadata know the table's leaders; the readers refresh
     * it when a leader moved.)
     */
    private TableReads openTable(CompletableFuture<TableInfo> readInfoRequest) throws Exception {
        return env.fluss().reads(currentTableInfo(readInfoRequest));
    }

    /** Asks the coordinator, on a reader thread, to write the offsets file of {@code endOffsets}. */
    private CompletableFuture<String> prepareOffsets(Map<TableBucket, Long> endOffsets) {
        return onReaderThread(
                () -> env.coordinator().prepareLakeSnapshot(assignment.tableId(), assignment.tablePath(), endOffsets));
    }

    /** Runs a blocking request on a reader thread, so the round's own thread goes on meanwhile. */
    private <T> CompletableFuture<T> onReaderThread(Callable<T> request) {
        CompletableFuture<T> result = new CompletableFuture<>();
        env.readerThreads().execute(() -> {
            try {
                result.complete(request.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /**
     * The lake table, checked against the Fluss table the round reads with. When the Fluss schema is still the
     * one read before {@code startLake} was loaded, that load is new enough and is used; otherwise the lake
     * table is loaded again. A Fluss ALTER between its two steps (the lake altered, the Fluss schema not yet)
     * shows as a lake column more: the Fluss schema is read again, for a few seconds, before the difference
     * counts as a change made outside Fluss. Reading with the older Fluss schema is then still right, as every
     * planned record was written before the ALTER; the lake fills the new column with NULLs.
     */
    private FileStoreTable checkedLakeTable(TableInfo readInfo, int startSchemaId, FileStoreTable startLake)
            throws Exception {
        FileStoreTable lakeTable = readInfo.getSchemaId() == startSchemaId
                ? startLake
                : env.lakeTables().load(assignment.tablePath());
        try {
            LakeTableCheck.check(readInfo, lakeTable);
        } catch (LakeTableIncompatibleException first) {
            TableInfo now = schemaAfter(readInfo);
            if (now.getSchemaId() == readInfo.getSchemaId()) {
                throw first;
            }
            LakeTableCheck.check(now, lakeTable);
        }
        return lakeTable;
    }

    /**
     * The Fluss table once its schema moved past {@code readInfo}'s, or as it is after {@link #ALTER_SETTLE}:
     * Fluss alters the lake and then its own schema, so a round that fell between the two sees the new schema
     * within moments, while a lake changed behind Fluss's back never gets a matching Fluss schema.
     */
    private TableInfo schemaAfter(TableInfo readInfo) throws Exception {
        Instant giveUpAt = env.clock().instant().plus(ALTER_SETTLE);
        while (true) {
            TableInfo now = currentTableInfo(tableInfoNow());
            if (now.getSchemaId() != readInfo.getSchemaId() || !env.clock().instant().isBefore(giveUpAt)) {
                return now;
            }
            control.throwIfCancelled();
            Thread.sleep(ALTER_POLL.toMillis());
        }
    }

    private void throwIfUnreadable(WriteOutcome written) throws BadRecordException {
        if (!written.unreadable.isEmpty()) {
            throw written.unreadable.get(0);
        }
    }

    /** The table's info as Fluss has it now, asked for. */
    private CompletableFuture<TableInfo> tableInfoNow() {
        return env.fluss().tableInfo(assignment.tablePath());
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

    private WriteOutcome readAndWrite(
            TableReads table,
            RowPathSchemaCheck rowPathCheck,
            @Nullable FlussClient columnarClient,
            boolean autoCompaction,
            FileStoreTable lakeTable,
            List<BucketRange> ranges,
            LakeSnapshotCommitter committer)
            throws Exception {
        int groups = Math.max(1, Math.min(env.bucketParallelism(), ranges.size()));
        List<List<BucketRange>> split = new ArrayList<>();
        for (int i = 0; i < groups; i++) {
            split.add(new ArrayList<>());
        }
        for (int i = 0; i < ranges.size(); i++) {
            split.get(i % groups).add(ranges.get(i));
        }
        List<Future<BucketGroupReader.GroupResult>> futures = new ArrayList<>();
        List<LakeWriter> writers = new ArrayList<>();
        RoundControl groupsControl = control.child();
        WriteOutcome outcome = new WriteOutcome();
        boolean columnarWrite = columnarWrite(lakeTable, autoCompaction);
        try {
            for (List<BucketRange> group : split) {
                LakeWriter writer = columnarWrite
                        ? ColumnarWriters.open(lakeTable)
                        : new LakeTableWriter(lakeTable, autoCompaction, env.ioTmpDir());
                writers.add(writer);
                BucketGroupReader reader =
                        new BucketGroupReader(table, rowPathCheck, columnarClient, writer, group, groupsControl);
                futures.add(env.readerThreads().submit(reader::read));
            }
            Exception failure = null;
            for (Future<BucketGroupReader.GroupResult> future : futures) {
                try {
                    BucketGroupReader.GroupResult result = future.get();
                    outcome.buckets.addAll(result.buckets());
                    outcome.messages.addAll(result.messages());
                    outcome.forceFinished |= result.forceFinished();
                    outcome.unreadable.addAll(result.unreadable());
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
        } catch (Exception e) {
            // Groups that completed hold written files; a failed group's writer deletes its own on close.
            committer.abort(outcome.messages);
            throw e;
        } finally {
            for (LakeWriter writer : writers) {
                try {
                    writer.close();
                } catch (Exception e) {
                    LOG.debug("Closing a lake writer of {} failed", assignment.tablePath(), e);
                }
            }
        }
    }

    /** Whether the columnar writer writes the table's data files (else Paimon's row writer does). */
    private boolean columnarWrite(FileStoreTable lakeTable, boolean autoCompaction) {
        if (!env.columnarWrite()) {
            return false;
        }
        String unsupported = autoCompaction
                ? "table.datalake.auto-compaction is on (Paimon's writer compacts as it writes)"
                : ColumnarWriters.unsupportedReason(lakeTable, env.columnarWritePrimaryKey());
        if (unsupported != null) {
            LOG.debug("{}: Paimon's row writer writes the data files: {}", assignment.tablePath(), unsupported);
            return false;
        }
        return true;
    }

    /** The client the columnar reader reads the table's log through, or null for the row reader. */
    private @Nullable FlussClient columnarClient(TableInfo tableInfo) {
        if (!env.columnarRead()) {
            return null;
        }
        String unsupported = ArrowLogReader.unsupportedReason(env.fluss(), tableInfo);
        if (unsupported != null) {
            LOG.debug("{}: the row reader reads the log: {}", assignment.tablePath(), unsupported);
            return null;
        }
        return env.fluss();
    }

    /**
     * Checks that this round may still commit, and returns the id of the newest Paimon snapshot (of any writer)
     * at that point: the conditional commit refuses to land if a tiering snapshot appears after it.
     */
    private long checkStillOwner(LakeSnapshotCommitter committer, Optional<TieringSnapshot> lakeBase)
            throws Exception {
        control.throwIfCancelled();
        // The coordinator stops tiering a table when it processes the table's drop, so a dropped or re-created
        // table's epoch is refused here too (TableNotExistException), with no table-info request of its own.
        HeartbeatResponse response =
                env.coordinator()
                        .heartbeat(HeartbeatRequest.renew(assignment.epoch()), env.coordinatorEpoch().getAsInt());
        Optional<ApiException> error = response.errorFor(assignment.tableId());
        if (error.isPresent()) {
            throw new FencedRoundException(
                    "The coordinator no longer gives " + assignment + " to this instance: " + error.get().getMessage(),
                    error.get());
        }
        // Read before the tiering snapshot below: every tiering snapshot up to it is then seen by that check.
        long fencedAt = committer.latestSnapshotId();
        Optional<Long> baseId = lakeBase.map(TieringSnapshot::snapshotId);
        Optional<Long> nowId = committer.latestTieringSnapshot().map(TieringSnapshot::snapshotId);
        if (!baseId.equals(nowId)) {
            throw new FencedRoundException(
                    "Another tiering commit landed in " + assignment.tablePath() + " during this round (snapshot "
                            + nowId.orElse(null) + ", round started from " + baseId.orElse(null) + ").");
        }
        return fencedAt;
    }

    /**
     * The Paimon commit. Failures come wrapped in a {@link LakeCommitException}: the commit cleaned up after
     * itself as far as it provably may (data files and the prepared offsets file when nothing landed, nothing
     * when the outcome is unknown).
     */
    private long commitToLake(
            LakeSnapshotCommitter committer, List<CommitMessage> messages, String offsetsPath, long fencedAt)
            throws LakeCommitException {
        LakeCommitOutcome outcome = committer.commit(messages, offsetsPath, fencedAt);
        if (outcome instanceof LakeCommitOutcome.Committed committed) {
            return committed.snapshotId();
        }
        if (outcome instanceof LakeCommitOutcome.Unknown unknown) {
            throw new LakeCommitException(new UnknownCommitOutcomeException(
                    "The Paimon commit of " + assignment.tablePath() + " may or may not have landed; "
                            + "the next round will find out",
                    unknown.cause()));
        }
        committer.abort(messages);
        deletePreparedOffsets(offsetsPath);
        if (outcome instanceof LakeCommitOutcome.Refused refused) {
            throw new LakeCommitException(new CommitRefusedException(
                    "Paimon refused the commit of " + assignment + ": tiering snapshot " + refused.otherSnapshotId()
                            + " landed after this round's fence, so the table has another owner; the round's files "
                            + "were deleted and nothing of it landed."));
        }
        throw new LakeCommitException(((LakeCommitOutcome.RetryableFailure) outcome).cause());
    }

    /** Deletes the offsets file the coordinator prepared for a commit that provably did not land. */
    private void deletePreparedOffsets(String offsetsPath) {
        try {
            FsPath path = new FsPath(offsetsPath);
            path.getFileSystem().delete(path, false);
        } catch (Exception e) {
            LOG.debug("Could not delete the unused offsets file {} of {}", offsetsPath, assignment.tablePath(), e);
        }
    }

    private Duration since(Instant start) {
        return Duration.between(start, env.clock().instant());
    }

    private static <T> T unwrap(Callable<T> call) throws Exception {
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
        final List<BadRecordException> unreadable = new ArrayList<>();
        boolean forceFinished;
    }

    /** Carries a failure of the Paimon commit past the clean-up for failures before it. */
    private static final class LakeCommitException extends Exception {
        LakeCommitException(Exception cause) {
            super(cause);
        }
    }
}
