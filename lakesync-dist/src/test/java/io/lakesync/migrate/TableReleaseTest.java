package io.lakesync.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.coordinator.HeartbeatRequest;
import io.lakesync.tiering.coordinator.HeartbeatResponse;
import io.lakesync.tiering.coordinator.LakeSnapshotCommit;
import io.lakesync.tiering.coordinator.TableEpoch;
import io.lakesync.tiering.coordinator.TieringCoordinator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.exception.ApiException;
import org.apache.fluss.exception.FencedTieringEpochException;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

/**
 * Handing back a table a stopped job still holds. The coordinator's answers are scripted: a job that stays
 * assigned after its cancel cannot be caused on demand (Fluss 0.9.1 does it now and then).
 */
class TableReleaseTest {

    @Test
    void reportsTheTableFailedUnderTheEpochTheCoordinatorNames() throws Exception {
        ScriptedCoordinator coordinator = new ScriptedCoordinator(new FencedTieringEpochException(
                "The tiering epoch -1 is not match current epoch 7 in coordinator for table 42."));
        new TableRelease(coordinator).release(42);
        assertThat(coordinator.failedReports).containsExactly(new TableEpoch(42, -1), new TableEpoch(42, 7));
        assertThat(coordinator.coordinatorEpochs).containsOnly(3);
    }

    @Test
    void aTableTheCoordinatorDoesNotTrackIsLeftAlone() throws Exception {
        ScriptedCoordinator coordinator =
                new ScriptedCoordinator(new TableNotExistException("The table 42 does not exist."));
        new TableRelease(coordinator).release(42);
        assertThat(coordinator.failedReports).containsExactly(new TableEpoch(42, -1));
    }

    /** Answers every failed report of a wrong epoch with {@code firstError}, the right one with success. */
    private static final class ScriptedCoordinator implements TieringCoordinator {
        final List<TableEpoch> failedReports = new ArrayList<>();
        final List<Integer> coordinatorEpochs = new ArrayList<>();
        private final ApiException firstError;

        ScriptedCoordinator(ApiException firstError) {
            this.firstError = firstError;
        }

        @Override
        public HeartbeatResponse heartbeat(HeartbeatRequest request, int coordinatorEpoch) {
            if (request.failed().isEmpty()) {
                return new HeartbeatResponse(3, Optional.empty(), Map.of());
            }
            coordinatorEpochs.add(coordinatorEpoch);
            TableEpoch table = request.failed().get(0);
            failedReports.add(table);
            return new HeartbeatResponse(3, Optional.empty(),
                    failedReports.size() == 1 ? Map.of(table.tableId(), firstError) : Map.of());
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
}
