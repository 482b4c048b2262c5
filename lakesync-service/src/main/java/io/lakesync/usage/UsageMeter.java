package io.lakesync.usage;

import io.lakesync.state.StateStore;
import io.lakesync.state.StateStoreException;
import io.lakesync.tiering.TieringListener;
import io.lakesync.tiering.capacity.RoundUsage;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Meters this instance's rounds: adds each round's usage to its table's current hour in memory and writes the
 * sums to the state store every {@link #FLUSH_INTERVAL}, on {@link #flush()} and on close. A write that fails
 * (the database is away) keeps the sums for the next one, so no usage is lost or counted twice: the write is
 * one transaction, and only what it committed is dropped from memory.
 */
public final class UsageMeter implements TieringListener, AutoCloseable {

    static final Duration FLUSH_INTERVAL = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(UsageMeter.class);

    private final UsageRepository repository;
    private final ScheduledExecutorService timer;
    private Map<String, HourlyUsage> unwritten = new HashMap<>();
    @Nullable private volatile String writeFault;

    public UsageMeter(StateStore store) {
        this.repository = new UsageRepository(store);
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "lakesync-usage-flush");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::flush, FLUSH_INTERVAL.toMillis(), FLUSH_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void roundMeasured(RoundUsage usage) {
        HourlyUsage round = HourlyUsage.of(usage);
        unwritten.merge(round.key(), round, HourlyUsage::plus);
    }

    /** Writes what was metered since the last write; on failure keeps it for the next. */
    public void flush() {
        Map<String, HourlyUsage> batch;
        synchronized (this) {
            if (unwritten.isEmpty()) {
                return;
            }
            batch = unwritten;
            unwritten = new HashMap<>();
        }
        try {
            repository.add(batch.values());
            if (writeFault != null) {
                writeFault = null;
                LOG.info("Usage is written to the state store again");
            }
        } catch (StateStoreException e) {
            synchronized (this) {
                batch.forEach((key, usage) -> unwritten.merge(key, usage, HourlyUsage::plus));
            }
            if (!e.getMessage().equals(writeFault)) {
                writeFault = e.getMessage();
                LOG.warn("Cannot write usage to the state store, keeping it for the next try in {} s: {}",
                        FLUSH_INTERVAL.toSeconds(), e.getMessage());
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        timer.shutdown();
        timer.awaitTermination(FLUSH_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        flush();
    }
}
