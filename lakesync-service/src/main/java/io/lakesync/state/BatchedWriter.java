package io.lakesync.state;

import io.lakesync.tiering.connection.RemoteErrors;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records reported on threads that must not wait for the state database (the tiering engine's: round outcomes,
 * usage), written to it on a thread of its own in keyed batches. {@link #add} merges a record into what waits and
 * returns; it never touches the database.
 *
 * <pre>
 *              a write fails: logs once, with the records buffered
 *   WRITING ─────────────────────────────────────────────────────▶ BUFFERING (tried again every retry interval)
 *      ▲                                                                │
 *      └─────────── a write succeeds: logs how many records it wrote ◀──┘
 * </pre>
 *
 * <p>The buffer is bounded by its keys (a table, a table's hour), not by the length of an outage: it holds one
 * value per key waiting for a batch, and every further record of the key merges into it (counts add up, the
 * latest state wins). Nothing is dropped and the reporting thread never blocks, however long the database stays
 * away; the memory grows only with the keys. What waits lives in memory; a {@link Keeper} may keep it on disk too.
 *
 * <p>Each write is one batch under a key of its own, which the {@link Target} records with it: a write that fails
 * keeps its batch, same key and same values, and tries it again, so a commit that went through but reported an
 * error is skipped, not counted twice. Records added meanwhile wait for the next batch. While writes fail, only
 * the retry interval tries again, not every record added.
 */
public final class BatchedWriter<V> implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BatchedWriter.class);

    /** Where the batches go. */
    @FunctionalInterface
    public interface Target<V> {
        /**
         * Adds {@code values} and records {@code batchKey}, in one transaction, unless that key was recorded before;
         * returns whether it added them now.
         */
        boolean write(String batchKey, Map<String, V> values);
    }

    /** Keeps what waits somewhere that outlives the process, for example a file the next start writes. */
    @FunctionalInterface
    public interface Keeper<V> {
        /**
         * What waits changed; called holding the writer's lock. {@code tried} (null if none) may be in the database
         * already, under its key; {@code unbatched} never reached it. Both empty: everything is written.
         *
         * @param failing whether the last write failed
         */
        void waiting(@Nullable Batch<V> tried, Map<String, V> unbatched, boolean failing);

        static <V> Keeper<V> none() {
            return (tried, unbatched, failing) -> {};
        }
    }

    /** Values written as one, under a key of their own; {@code records} is how many records they merge. */
    public record Batch<V>(String key, Map<String, V> values, int records) {

        static <V> Batch<V> of(Map<String, V> values, int records) {
            return new Batch<>(UUID.randomUUID().toString(), Map.copyOf(values), records);
        }
    }

    private final String what;
    private final Target<V> target;
    private final BinaryOperator<V> merge;
    private final Keeper<V> keeper;
    private final Clock clock;
    private final ScheduledExecutorService writer;
    private final AtomicBoolean writeQueued = new AtomicBoolean();
    /** Serialises the writes, and the reads that must not see a batch both written and waiting. */
    private final Object writing = new Object();
    /** Per key, what waits for a batch; guarded by this. */
    private Map<String, V> unbatched = new HashMap<>();
    private int unbatchedRecords;
    /** The batch being written, or whose write failed: it may be in the database already; guarded by this. */
    @Nullable private Batch<V> inFlight;
    /** Since when writes fail, null while they succeed; guarded by this. */
    @Nullable private Instant failingSince;
    /** Records written since the writes began to fail; guarded by this. */
    private int writtenWhileFailing;

    /**
     * @param what what the records are, for the log ("table activity", "usage")
     * @param merge folds a key's later value into its earlier one
     * @param tried a batch a previous run tried (null if none), written first under its key
     * @param unbatched what a previous run left in no batch
     */
    public BatchedWriter(
            String what,
            Target<V> target,
            BinaryOperator<V> merge,
            Keeper<V> keeper,
            @Nullable Batch<V> tried,
            Map<String, V> unbatched,
            Duration retryInterval,
            Clock clock) {
        this.what = what;
        this.target = target;
        this.merge = merge;
        this.keeper = keeper;
        this.clock = clock;
        this.inFlight = tried;
        this.unbatched.putAll(unbatched);
        this.unbatchedRecords = unbatched.size();
        this.writer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "lakesync-" + what.replace(' ', '-') + "-writer");
            thread.setDaemon(true);
            return thread;
        });
        writer.scheduleWithFixedDelay(this::flush, 0, retryInterval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Merges {@code value} into what waits for {@code key} and wakes the writer, unless writes fail. */
    public void add(String key, V value) {
        boolean wake;
        synchronized (this) {
            unbatched.merge(key, value, merge);
            unbatchedRecords++;
            keeper.waiting(inFlight, unbatched, failingSince != null);
            wake = failingSince == null;
        }
        if (wake && writeQueued.compareAndSet(false, true)) {
            try {
                writer.execute(() -> {
                    writeQueued.set(false);
                    flush();
                });
            } catch (RejectedExecutionException e) {
                // Closing: close() writes it.
            }
        }
    }

    /** Writes what waits; on failure keeps it for the next try. Returns whether nothing waits any more. */
    public boolean flush() {
        synchronized (writing) {
            for (Batch<V> batch = nextBatch(); batch != null; batch = nextBatch()) {
                try {
                    if (!target.write(batch.key(), batch.values())) {
                        LOG.info("The {} batch {} was in the state database already: its earlier write committed "
                                + "after all, so it is not added again", what, batch.key());
                    }
                } catch (RuntimeException e) {
                    failed(e);
                    return false;
                }
                written(batch);
            }
            return true;
        }
    }

    /**
     * Reads what is {@code stored} in the database and {@code combine}s it with what waits here (per key, the tried
     * batch's value merged with the later one), with no batch written in between: none is counted twice or missed.
     */
    public <T, R> R readWithWaiting(Supplier<T> stored, BiFunction<T, Map<String, V>, R> combine) {
        synchronized (writing) {
            T read = stored.get();
            Map<String, V> waiting;
            synchronized (this) {
                waiting = inFlight == null ? new HashMap<>() : new HashMap<>(inFlight.values());
                unbatched.forEach((key, value) -> waiting.merge(key, value, merge));
            }
            return combine.apply(read, waiting);
        }
    }

    /** Since when the state database refuses the writes; null while they succeed. */
    @Nullable
    public synchronized Instant failingSince() {
        return failingSince;
    }

    /**
     * Why a call to the state database failed, from the driver's or the pool's error on: the store's own wrapper
     * names the JDBC URL, which is not for status texts.
     */
    public static String describe(RuntimeException e) {
        return RemoteErrors.describe(e.getCause() != null ? e.getCause() : e);
    }

    /** The batch to write next: the one in flight, else what waits as a new batch; null when everything is written. */
    @Nullable
    private synchronized Batch<V> nextBatch() {
        if (inFlight == null && !unbatched.isEmpty()) {
            inFlight = Batch.of(unbatched, unbatchedRecords);
            unbatched = new HashMap<>();
            unbatchedRecords = 0;
            keeper.waiting(inFlight, unbatched, failingSince != null);
        }
        return inFlight;
    }

    private synchronized void failed(RuntimeException e) {
        keeper.waiting(inFlight, unbatched, true);
        if (failingSince == null) {
            failingSince = clock.instant();
            LOG.warn("State database unreachable since {}; {} buffered ({} record(s)), written when it answers: {}",
                    failingSince, what, buffered(), describe(e));
        }
    }

    private synchronized void written(Batch<V> batch) {
        inFlight = null;
        if (unbatched.isEmpty()) {
            keeper.waiting(null, unbatched, false);
        }
        if (failingSince == null) {
            return;
        }
        writtenWhileFailing += batch.records();
        if (unbatched.isEmpty()) {
            LOG.info("State database reachable again; wrote {} buffered {} record(s)", writtenWhileFailing, what);
            failingSince = null;
            writtenWhileFailing = 0;
        }
    }

    private int buffered() {
        return (inFlight == null ? 0 : inFlight.records()) + unbatchedRecords;
    }

    /** Stops the writer thread, then tries once more to write what waits. */
    @Override
    public void close() throws InterruptedException {
        writer.shutdown();
        writer.awaitTermination(1, TimeUnit.MINUTES);
        if (!flush()) {
            synchronized (this) {
                LOG.warn("Stopping with {} {} record(s) the state database did not take", buffered(), what);
            }
        }
    }
}
