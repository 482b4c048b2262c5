package io.lakesync.migrate;

import io.lakesync.fluss.tiering.HeartbeatRequest;
import io.lakesync.fluss.tiering.HeartbeatResponse;
import io.lakesync.fluss.tiering.TableEpoch;
import io.lakesync.fluss.tiering.TieringCoordinator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands a table held by a stopped tiering job back to the coordinator, as the job would have on a clean
 * shutdown. Fluss 0.9.1's job does not always do so when cancelled, and the coordinator then keeps the table
 * assigned to it until its heartbeat timeout (2 minutes, hard-coded in {@code LakeTableTieringManager}).
 *
 * <p>The protocol allows any tiering service to report a table failed under the table's current tiering epoch,
 * which the coordinator names when a report carries a wrong one. A table in the middle of a lakesync round would
 * lose that round (its commit is fenced by the epoch, nothing is written twice), so the migration releases only
 * tables lakesync has not committed for a while since the job stopped. The same refusal, asked under a wrong
 * epoch, tells a table's current epoch without changing anything ({@link JobHold} watches it move).
 */
final class TableRelease {

    private static final Logger LOG = LoggerFactory.getLogger(TableRelease.class);
    /** Fluss 0.9.1's message for a wrong tiering epoch, naming the current one. */
    private static final Pattern CURRENT_EPOCH = Pattern.compile("is not match current epoch (\\d+)");
    private static final long UNKNOWN_EPOCH = -1;

    private final TieringCoordinator coordinator;

    TableRelease(TieringCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    /**
     * The table's current tiering epoch, empty when the coordinator does not track it. Asking changes nothing: a
     * report under a wrong epoch is refused before it touches the table. Every re-queue of the table (a holder's
     * hand-back, its timeout) raises the epoch, so a moved epoch means the holder of the earlier one let go.
     */
    Optional<Long> currentEpoch(long tableId) throws Exception {
        return currentEpoch(fail(tableId, UNKNOWN_EPOCH, coordinatorEpoch()), tableId);
    }

    /** Reports the table failed under its current epoch, so the coordinator re-queues it at once. */
    void release(long tableId) throws Exception {
        Optional<Long> epoch = currentEpoch(tableId);
        if (epoch.isEmpty()) {
            LOG.info("Table id {} is not tracked for tiering by the coordinator; nothing to release", tableId);
            return;
        }
        fail(tableId, epoch.get(), coordinatorEpoch());
        LOG.info("Handed table id {} (tiering epoch {}) back to the coordinator for a new assignment", tableId,
                epoch.get());
    }

    private int coordinatorEpoch() throws Exception {
        return coordinator.heartbeat(HeartbeatRequest.registration(), 0).coordinatorEpoch();
    }

    private HeartbeatResponse fail(long tableId, long epoch, int coordinatorEpoch) throws Exception {
        TableEpoch table = new TableEpoch(tableId, epoch);
        return coordinator.heartbeat(
                new HeartbeatRequest(List.of(), List.of(), Set.of(), List.of(table), false), coordinatorEpoch);
    }

    private static Optional<Long> currentEpoch(HeartbeatResponse response, long tableId) {
        return response.errorFor(tableId).map(Throwable::getMessage)
                .map(CURRENT_EPOCH::matcher)
                .filter(Matcher::find)
                .map(m -> Long.parseLong(m.group(1)));
    }
}
