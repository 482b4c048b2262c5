package io.lakesync.migrate;

import io.lakesync.fluss.tiering.HeartbeatRequest;
import io.lakesync.fluss.tiering.HeartbeatResponse;
import io.lakesync.fluss.tiering.LakeSnapshotCommit;
import io.lakesync.fluss.tiering.TableEpoch;
import io.lakesync.fluss.tiering.TieringCoordinator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.exception.FencedTieringEpochException;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;

/**
 * A coordinator that answers failed-table reports as Fluss 0.9.1's does: a wrong tiering epoch is refused with a
 * message naming the current one, the right one re-queues the table (its epoch goes up by one), an untracked table
 * does not exist. A stand-in: a stopped job that keeps a table assigned cannot be caused on demand (Fluss 0.9.1
 * does it now and then).
 */
final class EpochCoordinator implements TieringCoordinator {

    static final int COORDINATOR_EPOCH = 3;

    final Map<Long, Long> epochs = new HashMap<>();
    final List<TableEpoch> failedReports = new ArrayList<>();
    final List<Integer> coordinatorEpochs = new ArrayList<>();

    @Override
    public HeartbeatResponse heartbeat(HeartbeatRequest request, int coordinatorEpoch) {
        if (request.failed().isEmpty()) {
            return new HeartbeatResponse(COORDINATOR_EPOCH, Optional.empty(), Map.of());
        }
        coordinatorEpochs.add(coordinatorEpoch);
        TableEpoch table = request.failed().get(0);
        failedReports.add(table);
        Long current = epochs.get(table.tableId());
        if (current == null) {
            return new HeartbeatResponse(COORDINATOR_EPOCH, Optional.empty(), Map.of(table.tableId(),
                    new TableNotExistException("The table " + table.tableId() + " does not exist.")));
        }
        if (current != table.tieringEpoch()) {
            return new HeartbeatResponse(COORDINATOR_EPOCH, Optional.empty(), Map.of(table.tableId(),
                    new FencedTieringEpochException("The tiering epoch " + table.tieringEpoch() + " is not match "
                            + "current epoch " + current + " in coordinator for table " + table.tableId() + ".")));
        }
        epochs.put(table.tableId(), current + 1);
        return new HeartbeatResponse(COORDINATOR_EPOCH, Optional.empty(), Map.of());
    }

    @Override
    public String prepareLakeSnapshot(long tableId, TablePath tablePath, Map<TableBucket, Long> logEndOffsets) {
        throw new UnsupportedOperationException();
    }

    @Override
    public String prepareFreshLakeSnapshot(long tableId, TablePath tablePath, Map<TableBucket, Long> offsets) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void commitLakeSnapshot(LakeSnapshotCommit commit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void close() {}
}
