package io.lakesync.fluss.tiering;

import java.util.Map;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;

/**
 * The Fluss coordinator's lake-tiering protocol, as a tiering service sees it. Calls block until the
 * coordinator answers; a failed call throws.
 */
public interface TieringCoordinator extends AutoCloseable {

    HeartbeatResponse heartbeat(HeartbeatRequest request, int coordinatorEpoch) throws Exception;

    /**
     * Writes the cumulative offsets file of a lake snapshot (the given end offsets merged over the ones the
     * coordinator already has) and returns its path, which the lake snapshot records.
     */
    String prepareLakeSnapshot(long tableId, TablePath tablePath, Map<TableBucket, Long> logEndOffsets)
            throws Exception;

    /**
     * Writes an offsets file holding exactly {@code logEndOffsets}, without reading the coordinator's previous
     * offsets (they may belong to a dropped table or point to a deleted file), and returns its path. Buckets
     * left out count as never tiered.
     */
    String prepareFreshLakeSnapshot(long tableId, TablePath tablePath, Map<TableBucket, Long> logEndOffsets)
            throws Exception;

    /** Registers a committed lake snapshot, making it readable and telling tablet servers the new offsets. */
    void commitLakeSnapshot(LakeSnapshotCommit commit) throws Exception;
}
