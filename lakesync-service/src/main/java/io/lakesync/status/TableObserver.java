package io.lakesync.status;

import io.lakesync.tiering.connection.Deadline;
import java.util.List;
import org.apache.fluss.metadata.TablePath;

/** Reads what the cluster and the lake say about the tables, each call bounded by the caller's deadline. */
public interface TableObserver {

    /** Every table of every database. */
    List<TablePath> listTables(Deadline deadline) throws Exception;

    /** Succeeds when the lake catalog answers. */
    void probeLake(Deadline deadline) throws Exception;

    TableObservation observe(TablePath path, Deadline deadline) throws Exception;
}
