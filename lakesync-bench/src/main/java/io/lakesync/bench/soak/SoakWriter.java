package io.lakesync.bench.soak;

import io.lakesync.bench.data.BenchSchema;
import io.lakesync.bench.data.PkOps;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.PartitionSpec;
import org.apache.fluss.metadata.TablePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the soak's mixed workload ({@link SoakData}) into Fluss without pause, at a fixed rate per table; the
 * partitioned table's partition changes every {@code partitionEvery}. Each partition is created one period
 * before its first row, so that writes never wait for a new partition's leader (Fluss's dynamic partition
 * creation works too, but logs errors while the partition's buckets get their leaders).
 *
 * <pre>
 *   start() ──► writing, one batch per table every 100 ms ──► stop(): flushed, every row acknowledged
 *                    │   ▲
 *                    │   └── resume() ◄── paused: nothing written, every row sent acknowledged ◄── pause()
 *                    └── a write Fluss rejects ──► stop() throws it
 * </pre>
 */
public final class SoakWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SoakWriter.class);
    private static final long TICK_MILLIS = 100;
    /** At most this many ticks' worth of rows per tick when the writer fell behind (a slow flush, a GC). */
    private static final int MAX_CATCH_UP_TICKS = 10;
    private static final Duration FLUSH_TIMEOUT = Duration.ofMinutes(2);

    private final int rowsPerSecond;
    private final Duration partitionEvery;
    private final SoakData data;
    private final Admin admin;
    private final TablePath partitionedPath;
    private final Table logTable;
    private final Table pkTable;
    private final Table partitionedTable;
    private final AppendWriter logWriter;
    private final UpsertWriter pkWriter;
    private final AppendWriter partitionedWriter;
    /** The tables' connections and the tables, closed in reverse order. */
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean running;
    /** Guards the pause: whether one is asked for, and whether the writing thread is held by it. */
    private final Object gate = new Object();
    private boolean pauseAsked;
    private boolean paused;

    public SoakWriter(Connection connection, SoakTables tables, SoakData data, int rowsPerSecond, Duration partitionEvery) {
        this.data = data;
        this.admin = connection.getAdmin();
        this.partitionedPath = tables.partitioned();
        this.rowsPerSecond = rowsPerSecond;
        this.partitionEvery = partitionEvery;
        this.logTable = openOnItsOwn(connection, tables.log());
        this.pkTable = openOnItsOwn(connection, tables.primaryKey());
        this.partitionedTable = openOnItsOwn(connection, tables.partitioned());
        this.logWriter = logTable.newAppend().createWriter();
        this.pkWriter = pkTable.newUpsert().createWriter();
        this.partitionedWriter = partitionedTable.newAppend().createWriter();
        this.thread = new Thread(this::writeLoop, "soak-writer");
        thread.setDaemon(true);
    }

    /**
     * Opens {@code path} on a connection of its own: the writers of one Fluss 0.9.1 connection confuse their tables'
     * batches when a request fails (apache/fluss#3772), and the campaign stops tablet servers under them.
     */
    private Table openOnItsOwn(Connection shared, TablePath path) {
        Connection own = ConnectionFactory.createConnection(shared.getConfiguration());
        opened.push(own);
        Table table = own.getTable(path);
        opened.push(table);
        return table;
    }

    public void start() {
        running = true;
        thread.start();
    }

    /** Stops writing and waits until Fluss acknowledged every row. */
    public void stop() throws Exception {
        running = false;
        resume();
        thread.join();
        flush();
        if (failure.get() != null) {
            throw new IllegalStateException("Fluss rejected a soak write; the soak cannot check the lake", failure.get());
        }
        LOG.info("Writer stopped: {} log rows, {} primary-key operations ({} live keys), {} partitioned rows in {} "
                        + "partitions", data.logRows(), data.pkOperations(), data.pkState().liveKeys(),
                data.partitionedRows(), data.partitions());
    }

    /**
     * Holds writing until {@link #resume()}: returns once the writer sends nothing more and Fluss acknowledged
     * every row sent, so that a fault meant for the service (a coordinator restart, say) cannot fail the writer.
     */
    public void pause() throws Exception {
        synchronized (gate) {
            pauseAsked = true;
            while (!paused && thread.isAlive()) {
                gate.wait(TICK_MILLIS);
            }
        }
        flush();
    }

    /** Writing goes on after a {@link #pause()}, catching up the rows the pause held back. */
    public void resume() {
        synchronized (gate) {
            pauseAsked = false;
            gate.notifyAll();
        }
    }

    private void awaitResume() throws InterruptedException {
        synchronized (gate) {
            while (pauseAsked && running) {
                paused = true;
                gate.notifyAll();
                gate.wait(TICK_MILLIS);
            }
            paused = false;
        }
    }

    private void flush() throws Exception {
        CompletableFuture.runAsync(() -> {
                    logWriter.flush();
                    pkWriter.flush();
                    partitionedWriter.flush();
                })
                .get(FLUSH_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    /** Why writing stopped early, if it did. */
    public Throwable failure() {
        return failure.get();
    }

    private void writeLoop() {
        long startNanos = System.nanoTime();
        long perTick = Math.max(1, rowsPerSecond * TICK_MILLIS / 1000);
        long target = 0;
        long created = -1;
        try {
            while (running && failure.get() == null) {
                awaitResume();
                long elapsedNanos = System.nanoTime() - startNanos;
                target = Math.min(rowsPerSecond * elapsedNanos / 1_000_000_000L, target + perTick * MAX_CATCH_UP_TICKS);
                long index = elapsedNanos / partitionEvery.toNanos();
                while (created < index + 1) {
                    createPartition(++created);
                }
                String partition = SoakTables.partitionName(index);
                long batch = target - data.logRows();
                for (long i = 0; i < batch; i++) {
                    writeOneOfEach(partition);
                }
                Thread.sleep(TICK_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            failure.compareAndSet(null, e);
        }
    }

    private void createPartition(long index) throws Exception {
        PartitionSpec spec = new PartitionSpec(Map.of(BenchSchema.PARTITION_COLUMN, SoakTables.partitionName(index)));
        admin.createPartition(partitionedPath, spec, true).get();
    }

    private void writeOneOfEach(String partition) throws Exception {
        track(logWriter.append(BenchSchema.toFluss(data.nextLogRow())));
        PkOps.Op op = data.nextPkOperation();
        track(op.delete() ? pkWriter.delete(BenchSchema.toFluss(op.row())) : pkWriter.upsert(BenchSchema.toFluss(op.row())));
        track(partitionedWriter.append(BenchSchema.toFluss(data.nextPartitionedRow(partition), partition)));
    }

    private void track(CompletableFuture<?> sent) {
        sent.whenComplete((ignored, error) -> {
            if (error != null) {
                failure.compareAndSet(null, error);
            }
        });
    }

    @Override
    public void close() throws Exception {
        running = false;
        thread.join();
        while (!opened.isEmpty()) {
            opened.pop().close();
        }
    }
}
