package io.lakesync.bench.scenario;

import io.lakesync.bench.contender.ChildJvm;
import io.lakesync.bench.data.DataSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;

/** The tables of one contender run, ready for the contender, and the timed part of the run. */
public interface Workload {

    List<TablePath> tables();

    /** Rows the run must sync, or (steady) rows written during the timed part. */
    long rows();

    /** Payload bytes of {@link #rows()}. */
    long logicalBytes();

    /** What a bound regenerates for the first table (table i: {@code spec().ofTable(i)}); only with bounds. */
    DataSpec spec();

    /** Rows each table's lake table must hold after a finished run; empty when not checked. */
    Map<TablePath, Long> expectedLakeRows();

    /**
     * Queues the tables of a workload prepared parked, running {@code beforeQueueing} just before the first of
     * them can be handed out; returns once they are queued.
     */
    void release(Runnable beforeQueueing) throws Exception;

    /**
     * The timed part, started once the tiering contender is ready: returns when it is over (every table synced,
     * or the steady period ended), when the contender fails, or at {@code timeout}.
     */
    Outcome drive(ChildJvm contender, Duration timeout) throws Exception;
}
