package io.lakesync.tiering;

import io.lakesync.fluss.tiering.HeartbeatRequest;
import io.lakesync.fluss.tiering.HeartbeatResponse;
import io.lakesync.fluss.tiering.LakeSnapshotCommit;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.fluss.tiering.TableEpoch;
import io.lakesync.fluss.tiering.TieringCoordinator;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.fluss.exception.ApiException;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;

/**
 * The coordinator's side of the tiering heartbeat, in memory, for the engine's unit tests: it hands out the
 * tables queued in {@link #waiting} one per heartbeat that asks, answers per-table errors set in
 * {@link #tableErrors}, fails every heartbeat while {@link #failure} is set, runs {@link #whileAnswering} before it
 * answers (what happens while a heartbeat is in flight), and records what it was sent.
 * Rounds are scripted in these tests, so the lake-snapshot calls are not supported.
 */
final class FakeCoordinator implements TieringCoordinator {

    final Deque<TableAssignment> waiting = new ArrayDeque<>();
    final Map<Long, ApiException> tableErrors = new HashMap<>();
    final List<HeartbeatRequest> heartbeats = new ArrayList<>();
    volatile RuntimeException failure;
    volatile Runnable whileAnswering = () -> {};

    @Override
    public synchronized HeartbeatResponse heartbeat(HeartbeatRequest request, int coordinatorEpoch) {
        if (failure != null) {
            throw failure;
        }
        heartbeats.add(request);
        whileAnswering.run();
        Map<Long, ApiException> errors = new HashMap<>();
        request.inProgress().forEach(t -> Optional.ofNullable(tableErrors.get(t.tableId())).ifPresent(e -> errors.put(t.tableId(), e)));
        Optional<TableAssignment> assigned = request.requestTable() ? Optional.ofNullable(waiting.poll()) : Optional.empty();
        return new HeartbeatResponse(1, assigned, errors);
    }

    synchronized HeartbeatRequest lastHeartbeat() {
        return heartbeats.get(heartbeats.size() - 1);
    }

    /** Every table reported failed, in order. */
    synchronized List<TableEpoch> failed() {
        return all(HeartbeatRequest::failed);
    }

    /** Every table reported finished, in order. */
    synchronized List<TableEpoch> finished() {
        return all(HeartbeatRequest::finished);
    }

    private List<TableEpoch> all(Function<HeartbeatRequest, List<TableEpoch>> part) {
        List<TableEpoch> tables = new ArrayList<>();
        heartbeats.forEach(h -> tables.addAll(part.apply(h)));
        return tables;
    }

    @Override
    public String prepareLakeSnapshot(long tableId, TablePath tablePath, Map<TableBucket, Long> logEndOffsets) {
        throw new UnsupportedOperationException("rounds are scripted in the engine's unit tests");
    }

    @Override
    public String prepareFreshLakeSnapshot(long tableId, TablePath tablePath, Map<TableBucket, Long> logEndOffsets) {
        throw new UnsupportedOperationException("rounds are scripted in the engine's unit tests");
    }

    @Override
    public void commitLakeSnapshot(LakeSnapshotCommit commit) {
        throw new UnsupportedOperationException("rounds are scripted in the engine's unit tests");
    }

    @Override
    public void close() {}
}
