package io.lakesync.usage;

import io.lakesync.state.StateStore;
import io.lakesync.state.StateStoreException;
import io.lakesync.tiering.TieringListener;
import io.lakesync.tiering.capacity.RoundUsage;
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
 * then skipped, not counted twice. Rounds measured meanwhile wait for the next batch. What is not written yet is
 * held in memory only, so an instance that dies during a database outage loses the usage of that outage's rounds.
 */
public final class UsageMeter implements TieringListener, AutoCloseable {

    static final Duration RETRY_INTERVAL = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(UsageMeter.class);

    private final UsageRepository repository;
    private final ScheduledExecutorService writer;
    private final AtomicBoolean writeQueued = new AtomicBoolean();
    /** Metered and in no batch yet; guarded by this. */
    private Map<String, HourlyUsage> unbatched = new HashMap<>();
    /** Serialises the writes, and guards {@link #tried} and {@link #writeFault}. */
    private final Object writing = new Object();
    /** The batch a write was tried with and failed: it may be in the store already, so it is tried as it is. */
    @Nullable private UsageBatch tried;
    @Nullable private String writeFault;

    public UsageMeter(StateStore store) {
        this(new UsageRepository(store));
    }

    UsageMeter(UsageRepository repository) {
        this.repository = repository;
        this.writer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "lakesync-usage-writer");
            thread.setDaemon(true);
            return thread;
        });
        writer.scheduleWithFixedDelay(this::flush, RETRY_INTERVAL.toMillis(), RETRY_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void roundMeasured(RoundUsage usage) {
        HourlyUsage round = HourlyUsage.of(usage);
        synchronized (this) {
            unbatched.merge(round.key(), round, HourlyUsage::plus);
        }
        if (writeQueued.compareAndSet(false, true)) {
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
            while (true) {
                UsageBatch batch = tried != null ? tried : takeUnbatched();
                if (batch == null) {
                    return;
                }
                try {
                    if (!repository.add(batch)) {
                        LOG.info("Usage batch {} was in the state store already: its earlier write committed after "
                                + "all, so it is not added again", batch.key());
                    }
                } catch (StateStoreException e) {
                    tried = batch;
                    if (!e.getMessage().equals(writeFault)) {
                        writeFault = e.getMessage();
                        LOG.warn("Cannot write usage to the state store, keeping it for the next try in {} s: {}",
                                RETRY_INTERVAL.toSeconds(), e.getMessage());
                    }
                    return;
                }
                tried = null;
                if (writeFault != null) {
                    writeFault = null;
                    LOG.info("Usage is written to the state store again");
                }
            }
        }
    }

    @Nullable
    private synchronized UsageBatch takeUnbatched() {
        if (unbatched.isEmpty()) {
            return null;
        }
        UsageBatch batch = UsageBatch.of(List.copyOf(unbatched.values()));
        unbatched = new HashMap<>();
        return batch;
    }

    @Override
    public void close() throws InterruptedException {
        writer.shutdown();
        writer.awaitTermination(RETRY_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        flush();
    }
}
