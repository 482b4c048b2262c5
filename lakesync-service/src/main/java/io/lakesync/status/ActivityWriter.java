package io.lakesync.status;

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
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what the engines did with each table to the {@link ActivityBoard} on a thread of its own, so that no engine
 * thread waits for the state database: {@link #add} only merges the change into what waits and returns.
 *
 * <pre>
 *              a write fails: logs once, with the events buffered
 *   WRITING ─────────────────────────────────────────────────────▶ BUFFERING (tried again every retry interval)
 *      ▲                                                                │
 *      └──────────── a write succeeds: logs how many events it wrote ◀──┘
 * </pre>
 *
 * <p>The buffer is bounded by the tables, not by the length of an outage: it holds at most one change per table
 * waiting for a batch, and every further event of the table merges into it ({@link ActivityChange#then}: counts
 * add up, the latest state wins). Nothing is dropped and the engine never blocks, however long the database stays
 * away; the memory grows only with the tables this instance tiers. The buffer lives in memory: an instance that
 * stops before the database is back loses the activity it buffered (display figures; usage, which is billed, keeps
 * a spool on disk).
 *
 * <p>Each write is one batch under a key of its own ({@link ActivityBoard#apply}): a write that fails keeps its
 * batch, same key and same changes, and tries it again, so a commit that went through but reported an error is
 * skipped, not counted twice. Events meanwhile wait for the next batch.
 */
final class ActivityWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ActivityWriter.class);

    private final ActivityBoard board;
    private final Clock clock;
    private final ScheduledExecutorService writer;
    private final AtomicBoolean writeQueued = new AtomicBoolean();
    /** Serialises the writes, and the reads that must not see a batch both written and waiting. */
    private final Object writing = new Object();
    /** Per table, what waits for a batch; guarded by this. */
    private Map<String, ActivityChange> unbatched = new HashMap<>();
    private int unbatchedEvents;
    /** The batch being written, or whose write failed: it may be on the board already; guarded by this. */
    @Nullable private Batch inFlight;
    /** Since when writes fail, null while they succeed; guarded by this. */
    @Nullable private Instant failingSince;
    /** Events written since the writes began to fail; guarded by this. */
    private int writtenWhileFailing;

    private record Batch(String key, Map<String, ActivityChange> changes, int events) {}

    ActivityWriter(ActivityBoard board, Clock clock, Duration retryInterval) {
        this.board = board;
        this.clock = clock;
        this.writer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "lakesync-activity-writer");
            thread.setDaemon(true);
            return thread;
        });
        writer.scheduleWithFixedDelay(this::flush, retryInterval.toMillis(), retryInterval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** Buffers {@code change} of {@code table} and wakes the writer (unless writes fail: it retries on its own). */
    void add(String table, ActivityChange change) {
        boolean wake;
        synchronized (this) {
            unbatched.merge(table, change, ActivityChange::then);
            unbatchedEvents++;
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
    boolean flush() {
        synchronized (writing) {
            for (Batch batch = nextBatch(); batch != null; batch = nextBatch()) {
                try {
                    if (!board.apply(batch.key(), batch.changes())) {
                        LOG.info("Activity batch {} was on the board already: its earlier write committed after all, "
                                + "so it is not applied again", batch.key());
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
     * Every table's activity on the board with what waits here applied, in one consistent view: no batch is written
     * meanwhile, so none is counted twice or missed.
     */
    Map<String, EngineActivity> readWithPending() {
        synchronized (writing) {
            Map<String, EngineActivity> all = new HashMap<>(board.all());
            synchronized (this) {
                if (inFlight != null) {
                    overlay(all, inFlight.changes());
                }
                overlay(all, unbatched);
            }
            return all;
        }
    }

    /** Since when the state database refuses this writer's writes; null while they succeed. */
    @Nullable
    synchronized Instant failingSince() {
        return failingSince;
    }

    private void overlay(Map<String, EngineActivity> all, Map<String, ActivityChange> changes) {
        changes.forEach((table, change) ->
                all.put(table, change.applyTo(all.getOrDefault(table, EngineActivity.NONE), board.self())));
    }

    @Nullable
    private synchronized Batch nextBatch() {
        if (inFlight == null && !unbatched.isEmpty()) {
            inFlight = new Batch(UUID.randomUUID().toString(), Map.copyOf(unbatched), unbatchedEvents);
            unbatched = new HashMap<>();
            unbatchedEvents = 0;
        }
        return inFlight;
    }

    private synchronized void failed(RuntimeException e) {
        if (failingSince == null) {
            failingSince = clock.instant();
            LOG.warn("State database unreachable since {}; table activity buffered ({} event(s)), written when it "
                    + "answers: {}", failingSince, buffered(), describe(e));
        }
    }

    private synchronized void written(Batch batch) {
        inFlight = null;
        if (failingSince == null) {
            return;
        }
        writtenWhileFailing += batch.events();
        if (unbatched.isEmpty()) {
            LOG.info("State database reachable again; wrote {} buffered activity event(s)", writtenWhileFailing);
            failingSince = null;
            writtenWhileFailing = 0;
        }
    }

    /**
     * Why a call to the state database failed, from the driver's or pool's error on: the store's own wrapper names
     * the JDBC URL, which is not for status texts.
     */
    static String describe(RuntimeException e) {
        return RemoteErrors.describe(e.getCause() != null ? e.getCause() : e);
    }

    private int buffered() {
        return (inFlight == null ? 0 : inFlight.events()) + unbatchedEvents;
    }

    @Override
    public void close() throws InterruptedException {
        writer.shutdown();
        writer.awaitTermination(1, TimeUnit.MINUTES);
        if (!flush()) {
            synchronized (this) {
                LOG.warn("Stopping with {} table activity event(s) the state database did not take", buffered());
            }
        }
    }
}
