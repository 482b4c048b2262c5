package io.lakesync.fluss.tiering;

import java.util.Map;
import java.util.Optional;
import org.apache.fluss.exception.ApiException;

/**
 * The coordinator's answer: its epoch, at most one newly assigned table, and the per-table errors (for
 * example a fenced tiering epoch) of the entries that were sent.
 */
public record HeartbeatResponse(
        int coordinatorEpoch, Optional<TableAssignment> assigned, Map<Long, ApiException> tableErrors) {

    public Optional<ApiException> errorFor(long tableId) {
        return Optional.ofNullable(tableErrors.get(tableId));
    }
}
