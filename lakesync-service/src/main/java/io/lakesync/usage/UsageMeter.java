package io.lakesync.usage;

import io.lakesync.state.BatchedWriter;
import io.lakesync.state.StateStore;
import io.lakesync.tiering.TieringListener;
import io.lakesync.tiering.capacity.RoundUsage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Meters this instance's rounds: adds each round's usage to its table's current hour and writes it to the state
 * store as soon as the round is measured, through a {@link BatchedWriter}, so that no round waits for the database.
 *
 * <p>Each write is a {@link UsageBatch} with a key of its own, added in one transaction that records the key, so
 * the store adds a batch once. A write that fails keeps its batch, same key and same figures, and tries it again
 * every {@link #RETRY_INTERVAL}, on {@link #flush()} and on close: a commit that succeeded but reported an error is
 * then skipped, not counted twice. Rounds measured meanwhile wait for the next batch, one value per table and hour.
 *
 * <p>From a failed write until everything is written, what waits is also kept in a {@link UsageSpool} on disk,
 * rewritten with every round and before every write of a new batch, so a crash during a database outage loses
 * nothing: the next start writes it, the batch that was tried under its key.
 */
public final class UsageMeter implements TieringListener, AutoCloseable {

    static final Duration RETRY_INTERVAL = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(UsageMeter.class);

    private final UsageSpool spool;
    private final BatchedWriter<HourlyUsage> writer;
    /** Whether the last spool write failed; only touched holding the writer's lock. */
    private boolean spoolFailing;

    /** A meter whose usage waiting for the store is kept in {@code spoolFile} too; it writes what a last run left. */
    public UsageMeter(StateStore store, Path spoolFile) {
        this(new UsageRepository(store), new UsageSpool(spoolFile));
    }

    UsageMeter(UsageRepository repository, UsageSpool spool) {
        this.spool = spool;
        UsageSpool.Contents left = recover();
        this.writer = new BatchedWriter<>("usage",
                (key, usage) -> repository.add(new UsageBatch(key, usage.values())),
                HourlyUsage::plus, this::keep,
                left.tried() == null ? null : new BatchedWriter.Batch<>(left.tried().key(),
                        byKey(left.tried().usage()), left.tried().usage().size()),
                byKey(left.unbatched()), RETRY_INTERVAL, Clock.systemUTC());
    }

    @Override
    public void roundMeasured(RoundUsage usage) {
        HourlyUsage round = HourlyUsage.of(usage);
        writer.add(round.key(), round);
    }

    /** Writes what was metered and not written yet; on failure keeps it for the next try. */
    public void flush() {
        writer.flush();
    }

    /**
     * Keeps what waits in the spool from a failed write on, until everything is written (then the spool goes): a
     * new batch is spooled before its first try, so that the spool never holds usage the store may have under
     * another key. A spool that cannot be written leaves the usage in memory only, which is said once.
     */
    private void keep(@Nullable BatchedWriter.Batch<HourlyUsage> tried, Map<String, HourlyUsage> unbatched,
            boolean failing) {
        if (!failing && !spool.exists()) {
            return;
        }
        try {
            if (tried == null && unbatched.isEmpty()) {
                spool.clear();
            } else {
                spool.save(tried == null ? null : new UsageBatch(tried.key(), tried.values().values()),
                        unbatched.values());
            }
            spoolFailing = false;
        } catch (IOException e) {
            if (!spoolFailing) {
                spoolFailing = true;
                LOG.warn("Cannot keep the usage waiting for the state store in {}: it is in memory only, and lost "
                        + "should this instance stop before the store is back", spool.file(), e);
            }
        }
    }

    private UsageSpool.Contents recover() {
        try {
            UsageSpool.Contents left = spool.load();
            if (left.tried() != null || !left.unbatched().isEmpty()) {
                LOG.info("Writing the usage a previous run could not write to the state store, from {}", spool.file());
            }
            return left;
        } catch (IOException | RuntimeException e) {
            try {
                LOG.warn("Cannot read the usage a previous run left in {}, set aside as {}", spool.file(),
                        spool.setAside(), e);
            } catch (IOException moveFailed) {
                LOG.warn("Cannot read nor set aside the usage a previous run left in {}", spool.file(), moveFailed);
            }
            return new UsageSpool.Contents(null, java.util.List.of());
        }
    }

    private static Map<String, HourlyUsage> byKey(Iterable<HourlyUsage> usage) {
        Map<String, HourlyUsage> byKey = new HashMap<>();
        usage.forEach(u -> byKey.merge(u.key(), u, HourlyUsage::plus));
        return byKey;
    }

    @Override
    public void close() throws InterruptedException {
        writer.close();
    }
}
