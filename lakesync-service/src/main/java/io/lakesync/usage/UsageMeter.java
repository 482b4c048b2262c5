package io.lakesync.usage;

import io.lakesync.state.StateStore;
import io.lakesync.state.StateStoreException;
import io.lakesync.tiering.TieringListener;
import io.lakesync.tiering.capacity.RoundUsage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Meters this instance's rounds: adds each round's usage to its table's current hour and writes it to the state
 * store as soon as the round is measured, on a thread of its own so that no round waits for the database.
 *
 * <p>Each write is a {@link UsageBatch} with a key of its own, added in one transaction that records the key, so
 * the store adds a batch once. A write that fails keeps its batch, same key and same figures, and tries it again
 * every {@link #RETRY_INTERVAL}, on {@link #flush()} and on close: a commit that succeeded but reported an error is
 * then skipped, not counted twice. Rounds measured meanwhile wait for the next batch.
 *
 * <p>From a failed write until everything is written, what waits is also kept in a {@link UsageSpool} on disk,
 * rewritten with every round and before every write of a new batch, so a crash during a database outage loses
 * nothing: the next start writes it, the batch that was tried under its key.
 */
public final class UsageMeter implements TieringListener, AutoCloseable {

    static final Duration RETRY_INTERVAL = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(UsageMeter.class);

    private final UsageRepository repository;
    private final UsageSpool spool;
    private final ScheduledExecutorService writer;
    private final AtomicBoolean writeQueued = new AtomicBoolean();
    /** Serialises the writes. */
    private final Object writing = new Object();
    /** Metered and in no batch yet; guarded by this. */
    private Map<String, HourlyUsage> unbatched = new HashMap<>();
    /** The batch being written, or whose write failed: it may be in the store already; guarded by this. */
    @Nullable private UsageBatch inFlight;
    /** Whether the last write failed: then only the retry interval tries again, not every round measured. */
    private volatile boolean writeFailing;
    /** Whether the last spool write failed; guarded by this. */
    private boolean spoolFailing;

    /** A meter whose usage waiting for the store is kept in {@code spoolFile} too; it writes what a last run left. */
    public UsageMeter(StateStore store, Path spoolFile) {
        this(new UsageRepository(store), new UsageSpool(spoolFile));
    }

    UsageMeter(UsageRepository repository, UsageSpool spool) {
        this.repository = repository;
        this.spool = spool;
        recover();
        this.writer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "lakesync-usage-writer");
            thread.setDaemon(true);
            return thread;
        });
        writer.scheduleWithFixedDelay(this::flush, 0, RETRY_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void roundMeasured(RoundUsage usage) {
        HourlyUsage round = HourlyUsage.of(usage);
        synchronized (this) {
            unbatched.merge(round.key(), round, HourlyUsage::plus);
            if (spool.exists()) {
                saveSpool();
            }
        }
        if (!writeFailing && writeQueued.compareAndSet(false, true)) {
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

    /** Writes what was metered and not written yet; on failure keeps it for the next try. */
    public void flush() {
        synchronized (writing) {
            for (UsageBatch batch = nextBatch(); batch != null; batch = nextBatch()) {
                try {
                    if (!repository.add(batch)) {
                        LOG.info("Usage batch {} was in the state store already: its earlier write committed after "
                                + "all, so it is not added again", batch.key());
                    }
                } catch (StateStoreException e) {
                    synchronized (this) {
                        saveSpool();
                    }
                    if (!writeFailing) {
                        writeFailing = true;
                        LOG.warn("Cannot write usage to the state store, keeping it for the next try in {} s: {}",
                                RETRY_INTERVAL.toSeconds(), e.getMessage());
                    }
                    return;
                }
                written();
                if (writeFailing) {
                    writeFailing = false;
                    LOG.info("Usage is written to the state store again");
                }
            }
        }
    }

    /**
     * The batch to write next: the one in flight, else what was metered as a new batch, spooled before its first
     * try while a spool is kept (so that the spool never holds usage the store may have under another key); null
     * when everything is written, and then the spool goes.
     */
    @Nullable
    private synchronized UsageBatch nextBatch() {
        if (inFlight == null && !unbatched.isEmpty()) {
            inFlight = UsageBatch.of(List.copyOf(unbatched.values()));
            unbatched = new HashMap<>();
            if (spool.exists()) {
                saveSpool();
            }
        }
        if (inFlight == null && spool.exists()) {
            try {
                spool.clear();
            } catch (IOException e) {
                LOG.warn("Cannot delete {}; its usage is in the state store, the next start finds that", spool.file(), e);
            }
        }
        return inFlight;
    }

    private synchronized void written() {
        inFlight = null;
    }

    /** Called holding this. A spool that cannot be written leaves the usage in memory only, which is said once. */
    private void saveSpool() {
        try {
            spool.save(inFlight, unbatched.values());
            spoolFailing = false;
        } catch (IOException e) {
            if (!spoolFailing) {
                spoolFailing = true;
                LOG.warn("Cannot keep the usage waiting for the state store in {}: it is in memory only, and lost "
                        + "should this instance stop before the store is back", spool.file(), e);
            }
        }
    }

    private void recover() {
        try {
            UsageSpool.Contents left = spool.load();
            inFlight = left.tried();
            left.unbatched().forEach(u -> unbatched.merge(u.key(), u, HourlyUsage::plus));
            if (inFlight != null || !left.unbatched().isEmpty()) {
                LOG.info("Writing the usage a previous run could not write to the state store, from {}", spool.file());
            }
        } catch (IOException | RuntimeException e) {
            try {
                LOG.warn("Cannot read the usage a previous run left in {}, set aside as {}", spool.file(),
                        spool.setAside(), e);
            } catch (IOException moveFailed) {
                LOG.warn("Cannot read nor set aside the usage a previous run left in {}", spool.file(), moveFailed);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        writer.shutdown();
        writer.awaitTermination(RETRY_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        flush();
    }
}
