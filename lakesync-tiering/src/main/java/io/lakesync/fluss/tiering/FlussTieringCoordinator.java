package io.lakesync.fluss.tiering;

import io.lakesync.fluss.ReconnectingConnection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.exception.ApiException;
import org.apache.fluss.lake.committer.LakeCommitResult;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.rpc.gateway.CoordinatorGateway;
import org.apache.fluss.rpc.messages.CommitLakeTableSnapshotRequest;
import org.apache.fluss.rpc.messages.LakeTieringHeartbeatRequest;
import org.apache.fluss.rpc.messages.LakeTieringHeartbeatResponse;
import org.apache.fluss.rpc.messages.PbBucketOffset;
import org.apache.fluss.rpc.messages.PbCommitLakeTableSnapshotRespForTable;
import org.apache.fluss.rpc.messages.PbHeartbeatReqForTable;
import org.apache.fluss.rpc.messages.PbHeartbeatRespForTable;
import org.apache.fluss.rpc.messages.PbLakeTableOffsetForBucket;
import org.apache.fluss.rpc.messages.PbLakeTableSnapshotInfo;
import org.apache.fluss.rpc.messages.PbLakeTableSnapshotMetadata;
import org.apache.fluss.rpc.messages.PbLakeTieringTableInfo;
import org.apache.fluss.rpc.messages.PbPrepareLakeTableRespForTable;
import org.apache.fluss.rpc.messages.PbTableOffsets;
import org.apache.fluss.rpc.messages.PrepareLakeTableSnapshotRequest;
import org.apache.fluss.rpc.protocol.ApiError;

/** {@link TieringCoordinator} over the coordinator RPC gateway of a Fluss client connection. */
public final class FlussTieringCoordinator implements TieringCoordinator {

    private static final long RPC_TIMEOUT_SECONDS = 60;

    private final CoordinatorGateway gateway;

    public FlussTieringCoordinator(CoordinatorGateway gateway) {
        this.gateway = gateway;
    }

    /**
     * The coordinator of {@code connection}'s cluster; over a {@link ReconnectingConnection} it follows the
     * coordinator when the cluster's servers move.
     */
    public static FlussTieringCoordinator of(Connection connection) {
        return new FlussTieringCoordinator(
                connection instanceof ReconnectingConnection reconnecting
                        ? reconnecting.coordinatorGateway()
                        : ((FlussConnection) connection).getMetadataUpdater().newCoordinatorServerClient());
    }

    @Override
    public HeartbeatResponse heartbeat(HeartbeatRequest request, int coordinatorEpoch) throws Exception {
        LakeTieringHeartbeatRequest rpc = new LakeTieringHeartbeatRequest();
        request.inProgress().forEach(t -> fill(rpc.addTieringTable(), t, coordinatorEpoch));
        request.finished().forEach(t -> fill(rpc.addFinishedTable(), t, coordinatorEpoch));
        request.forceFinished().forEach(rpc::addForceFinishedTable);
        request.failed().forEach(t -> fill(rpc.addFailedTable(), t, coordinatorEpoch));
        if (request.requestTable()) {
            rpc.setRequestTable(true);
        }
        LakeTieringHeartbeatResponse response =
                gateway.lakeTieringHeartbeat(rpc).get(RPC_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Map<Long, ApiException> errors = new HashMap<>();
        collectErrors(response.getFailedTableRespsList(), errors);
        collectErrors(response.getTieringTableRespsList(), errors);
        collectErrors(response.getFinishedTableRespsList(), errors);
        Optional<TableAssignment> assigned = Optional.empty();
        if (response.hasTieringTable()) {
            PbLakeTieringTableInfo table = response.getTieringTable();
            assigned =
                    Optional.of(
                            new TableAssignment(
                                    table.getTableId(),
                                    TablePath.of(
                                            table.getTablePath().getDatabaseName(),
                                            table.getTablePath().getTableName()),
                                    table.getTieringEpoch()));
        }
        return new HeartbeatResponse(response.getCoordinatorEpoch(), assigned, errors);
    }

    @Override
    public String prepareLakeSnapshot(long tableId, TablePath tablePath, Map<TableBucket, Long> logEndOffsets)
            throws Exception {
        return prepare(tableId, tablePath, logEndOffsets, false);
    }

    @Override
    public String prepareFreshLakeSnapshot(long tableId, TablePath tablePath, Map<TableBucket, Long> logEndOffsets)
            throws Exception {
        return prepare(tableId, tablePath, logEndOffsets, true);
    }

    private String prepare(
            long tableId, TablePath tablePath, Map<TableBucket, Long> logEndOffsets, boolean ignorePrevious)
            throws Exception {
        PrepareLakeTableSnapshotRequest request = new PrepareLakeTableSnapshotRequest();
        if (ignorePrevious) {
            request.setIgnorePreviousTableOffsets(true);
        }
        PbTableOffsets table = request.addBucketOffset();
        table.setTableId(tableId);
        table.setTablePath().setDatabaseName(tablePath.getDatabaseName()).setTableName(tablePath.getTableName());
        logEndOffsets.forEach(
                (bucket, offset) -> {
                    PbBucketOffset pb = table.addBucketOffset();
                    if (bucket.getPartitionId() != null) {
                        pb.setPartitionId(bucket.getPartitionId());
                    }
                    pb.setBucketId(bucket.getBucket()).setLogEndOffset(offset);
                });
        List<PbPrepareLakeTableRespForTable> responses =
                gateway.prepareLakeTableSnapshot(request)
                        .get(RPC_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                        .getPrepareLakeTableRespsList();
        // An error answer carries no table id, so it is looked at first.
        if (responses.size() == 1 && responses.get(0).hasErrorCode()) {
            throw ApiError.fromErrorMessage(responses.get(0)).exception();
        }
        if (responses.size() != 1 || responses.get(0).getTableId() != tableId) {
            throw new IllegalStateException(
                    "Coordinator answered the offsets preparation of " + tablePath + " for other tables.");
        }
        PbPrepareLakeTableRespForTable response = responses.get(0);
        return response.getLakeTableOffsetsPath();
    }

    @Override
    public void commitLakeSnapshot(LakeSnapshotCommit commit) throws Exception {
        CommitLakeTableSnapshotRequest request = new CommitLakeTableSnapshotRequest();
        PbLakeTableSnapshotMetadata metadata = request.addLakeTableSnapshotMetadata();
        metadata.setTableId(commit.tableId())
                .setSnapshotId(commit.lakeSnapshotId())
                .setTieredBucketOffsetsFilePath(commit.offsetsPath());
        if (commit.readable()) {
            metadata.setReadableBucketOffsetsFilePath(commit.offsetsPath());
        } else {
            // Keep the earlier entries: the newest readable one stays what union reads plan on.
            metadata.setEarliestSnapshotIdToKeep(LakeCommitResult.KEEP_ALL_PREVIOUS);
        }
        if (!commit.logEndOffsets().isEmpty()) {
            // Only this part reaches the tablet servers: their lake offsets and lag metrics depend on it.
            PbLakeTableSnapshotInfo info = request.addTablesReq();
            info.setTableId(commit.tableId()).setSnapshotId(commit.lakeSnapshotId());
            commit.logEndOffsets()
                    .forEach(
                            (bucket, offset) -> {
                                PbLakeTableOffsetForBucket pb = info.addBucketsReq();
                                if (bucket.getPartitionId() != null) {
                                    pb.setPartitionId(bucket.getPartitionId());
                                }
                                pb.setBucketId(bucket.getBucket()).setLogEndOffset(offset);
                                Long maxTimestamp = commit.maxTimestamps().get(bucket);
                                if (maxTimestamp != null) {
                                    pb.setMaxTimestamp(maxTimestamp);
                                }
                            });
        }
        List<PbCommitLakeTableSnapshotRespForTable> responses =
                gateway.commitLakeTableSnapshot(request)
                        .get(RPC_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                        .getTableRespsList();
        for (PbCommitLakeTableSnapshotRespForTable response : responses) {
            if (response.hasErrorCode()) {
                throw ApiError.fromErrorMessage(response).exception();
            }
        }
    }

    @Override
    public void close() {}

    private static void fill(PbHeartbeatReqForTable pb, TableEpoch table, int coordinatorEpoch) {
        pb.setTableId(table.tableId()).setCoordinatorEpoch(coordinatorEpoch).setTieringEpoch(table.tieringEpoch());
    }

    private static void collectErrors(List<PbHeartbeatRespForTable> responses, Map<Long, ApiException> errors) {
        for (PbHeartbeatRespForTable response : responses) {
            if (response.hasError()) {
                errors.put(response.getTableId(), ApiError.fromErrorMessage(response.getError()).exception());
            }
        }
    }
}
