package io.lakesync.bench.data;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.TablePath;

/**
 * Writes a {@link DataSpec} into a Fluss table with the Fluss client. A log table is written in one go; a
 * primary-key table in two steps ({@link #writeBase}, then {@link #writeTail}) so that a KV snapshot can be
 * taken in between.
 */
public final class FlussLoader {

    private static final long PROGRESS_EVERY = 1_000_000;
    private static final Duration FLUSH_TIMEOUT = Duration.ofMinutes(5);

    private final Connection connection;
    private final TablePath path;
    private final DataSpec spec;
    private final Consumer<String> progress;
    private final PkOps ops;
    private final PkState state;
    private long written;
    private long bytes;

    public FlussLoader(Connection connection, TablePath path, DataSpec spec, Consumer<String> progress) {
        this.connection = connection;
        this.path = path;
        this.spec = spec;
        this.progress = progress;
        this.ops = spec.primaryKey() ? new PkOps(spec.seed()) : null;
        this.state = spec.primaryKey() ? new PkState(spec.seed()) : null;
    }

    /** Writes every log row, or the primary-key operations before the snapshot point. */
    public void writeBase() throws Exception {
        write(spec.baseRows());
    }

    /** Writes the primary-key operations after the snapshot point (nothing for a log table). */
    public void writeTail() throws Exception {
        write(spec.rows() - written);
    }

    /** Rows (log) or live keys (primary key) the lake table holds once everything written is tiered. */
    public long expectedLakeRows() {
        return spec.primaryKey() ? state.liveKeys() : written;
    }

    /** Logical payload bytes written so far (see {@link BenchRecord#logicalBytes()}). */
    public long logicalBytes() {
        return bytes;
    }

    private void write(long count) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (Table table = connection.getTable(path)) {
            if (spec.primaryKey()) {
                UpsertWriter writer = table.newUpsert().createWriter();
                for (long i = 0; i < count; i++) {
                    PkOps.Op op = ops.next();
                    state.apply(op);
                    CompletableFuture<?> sent =
                            op.delete()
                                    ? writer.delete(BenchSchema.toFluss(op.row()))
                                    : writer.upsert(BenchSchema.toFluss(op.row()));
                    track(sent, failure, op.row());
                }
                flushWithin(writer::flush);
            } else {
                AppendWriter writer = table.newAppend().createWriter();
                for (long i = 0; i < count; i++) {
                    BenchRecord row = LogData.row(spec.seed(), written);
                    track(writer.append(BenchSchema.toFluss(row)), failure, row);
                }
                flushWithin(writer::flush);
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("Writing benchmark rows into " + path + " failed", failure.get());
        }
    }

    /**
     * Fluss's writer waits without limit for a bucket that has no leader; the benchmark stops with the reason
     * instead of hanging.
     */
    private void flushWithin(Runnable flush) throws Exception {
        try {
            CompletableFuture.runAsync(flush).get(FLUSH_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Fluss did not acknowledge the rows written into " + path + " within "
                    + FLUSH_TIMEOUT.toMinutes() + " minutes (a bucket without a leader?); the benchmark stops.", e);
        }
    }

    private void track(CompletableFuture<?> sent, AtomicReference<Throwable> failure, BenchRecord row) {
        sent.whenComplete((ignored, error) -> {
            if (error != null) {
                failure.compareAndSet(null, error);
            }
        });
        written++;
        bytes += row.logicalBytes();
        if (written % PROGRESS_EVERY == 0) {
            progress.accept(String.format("  %s: %,d of %,d %s written", path, written, spec.rows(),
                    spec.primaryKey() ? "operations" : "rows"));
        }
    }
}
