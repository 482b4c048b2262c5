package io.lakesync.cluster;

import io.lakesync.fluss.tiering.HeartbeatRequest;
import io.lakesync.fluss.tiering.TableEpoch;
import io.lakesync.fluss.tiering.TieringCoordinator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A leader duty: the tables an instance held when it died are reported failed to the Fluss coordinator on its
 * behalf, so they are handed out again at once instead of after the coordinator's fixed 2-minute timeout.
 *
 * <p>The coordinator checks a report only against the table's current tiering epoch, not against who sends it;
 * a table already handed out again since has a newer epoch and is left alone. An instance that was only stalled,
 * not dead, cannot commit afterwards: its round's fence finds the epoch moved on.
 */
public final class DeadInstanceTables implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(DeadInstanceTables.class);

    private final Membership membership;
    private final TieringCoordinator coordinator;

    public DeadInstanceTables(Membership membership, TieringCoordinator coordinator) {
        this.membership = membership;
        this.coordinator = coordinator;
    }

    @Override
    public void run() {
        for (Map.Entry<String, List<TableEpoch>> dead : membership.tablesOfDeadInstances().entrySet()) {
            try {
                int coordinatorEpoch = coordinator.heartbeat(HeartbeatRequest.registration(), 0).coordinatorEpoch();
                coordinator.heartbeat(
                        new HeartbeatRequest(List.of(), List.of(), Set.of(), dead.getValue(), false), coordinatorEpoch);
            } catch (Exception e) {
                throw new IllegalStateException("Cannot hand back the tables of dead instance " + dead.getKey()
                        + " to the Fluss coordinator: " + e, e);
            }
            membership.releaseTablesOf(dead.getKey());
            LOG.info("Instance {} died holding {} table(s) (ids {}); handed them back to the Fluss coordinator",
                    dead.getKey(), dead.getValue().size(), dead.getValue().stream().map(TableEpoch::tableId).toList());
        }
    }
}
