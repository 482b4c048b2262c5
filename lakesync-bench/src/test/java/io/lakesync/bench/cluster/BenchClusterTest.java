package io.lakesync.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.fluss.tiering.FlussTieringCoordinator;
import io.lakesync.fluss.tiering.HeartbeatRequest;
import io.lakesync.fluss.tiering.HeartbeatResponse;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.local.ClusterTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@ClusterTest
class BenchClusterTest {

    private static final Duration FRESHNESS = Duration.ofSeconds(2);
    private static final Duration GIVE_UP = Duration.ofSeconds(60);

    @TempDir Path dir;

    /**
     * A warm-up wave's tables are parked once tiered, so that none of them comes back in the timed window. The
     * parked table's round finished before its sibling's, with the same freshness: unparked, the coordinator would
     * hand it out again no later than the sibling.
     */
    @Test
    void aTableParkedAfterItsRoundIsNotHandedOutAgainWhileAnotherOneIs() throws Exception {
        try (BenchCluster cluster = BenchCluster.start(dir.resolve("cluster"), Duration.ofMinutes(1))) {
            TablePath parked = TablePath.of("bench", "parked");
            TablePath sibling = TablePath.of("bench", "sibling");
            cluster.createTable(parked, false, 1);
            cluster.createTable(sibling, false, 1);
            cluster.queue(List.of(parked, sibling), FRESHNESS);
            FlussTieringCoordinator coordinator = FlussTieringCoordinator.of(cluster.connection());
            int epoch = coordinator.heartbeat(HeartbeatRequest.registration(), 0).coordinatorEpoch();

            Map<TablePath, TableAssignment> taken = new HashMap<>();
            long deadline = System.nanoTime() + GIVE_UP.toNanos();
            while (taken.size() < 2 && System.nanoTime() < deadline) {
                take(coordinator, epoch).ifPresent(table -> taken.put(table.tablePath(), table));
            }
            assertThat(taken).as("both queued tables handed out").hasSize(2);
            finish(coordinator, epoch, taken.get(parked));
            cluster.park(List.of(parked));
            finish(coordinator, epoch, taken.get(sibling));

            List<TablePath> handedOut = new ArrayList<>();
            deadline = System.nanoTime() + GIVE_UP.toNanos();
            while (!handedOut.contains(sibling) && System.nanoTime() < deadline) {
                take(coordinator, epoch).ifPresent(table -> handedOut.add(table.tablePath()));
            }
            take(coordinator, epoch).ifPresent(table -> handedOut.add(table.tablePath()));
            assertThat(handedOut).as("handed out after both rounds finished").containsExactly(sibling);
        }
    }

    private static Optional<TableAssignment> take(FlussTieringCoordinator coordinator, int epoch)
            throws Exception {
        HeartbeatResponse response = coordinator.heartbeat(
                new HeartbeatRequest(List.of(), List.of(), Set.of(), List.of(), true), epoch);
        return response.assigned();
    }

    private static void finish(FlussTieringCoordinator coordinator, int epoch, TableAssignment table)
            throws Exception {
        HeartbeatResponse response = coordinator.heartbeat(new HeartbeatRequest(
                List.of(), List.of(table.epoch()), Set.of(), List.of(), false),
                epoch);
        assertThat(response.tableErrors()).as("finishing %s", table.tablePath()).isEmpty();
    }
}
