package io.lakesync.cluster;

import io.lakesync.config.LakeSyncOptions;
import io.lakesync.state.DatabaseKind;
import io.lakesync.state.Sql;
import io.lakesync.state.StateStore;
import io.lakesync.tiering.capacity.CapacityQuotas;
import io.lakesync.tiering.capacity.ClaimLedger;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.fluss.metadata.TablePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CU claims of every instance sharing the PostgreSQL state ({@code compute_unit_claim}), so the quotas hold
 * for the cluster. A claim is one transaction: it locks the ledger's row (claims of all instances go one after
 * another), reclaims the claims of dead instances, counts the claims of the cluster and of the table's
 * database, and inserts one if both quotas have a CU free. A release deletes the row.
 *
 * <pre>
 *   claim ──► lock the ledger row ──► reclaim the dead's ──► count ──► quota free ──► insert ──► GRANTED
 *                                                                        └── full ──────────────► REFUSED
 *   release ──► delete the row (already reclaimed: nothing)
 *   no answer within quota.claim-timeout, or the database fails ──► UNREACHABLE (the admission's fair share)
 * </pre>
 *
 * <p>A claim is reclaimed once it is older than {@code cluster.instance-timeout} and its instance is not alive: its
 * heartbeat is older than that timeout, it stopped, or it never beat. So a claim lives that long in any case, as
 * an instance's engine claims before the instance first beats (or beats again, after a restart).
 * Every time is the database's ({@link DatabaseKind#currentMillis()}), as for the heartbeats it is compared with,
 * so instances' clocks never matter.
 *
 * <p>Each call runs on a thread of this ledger's own, one at a time, and the caller waits at most
 * {@code quota.claim-timeout}: past it, or while an earlier call still hangs, the call is {@link Unreachable}. A
 * claim granted after its caller gave up is released at once, so no CU stays claimed for a round that never ran.
 * A new run of an instance drops the claims an earlier run of the same id left.
 */
public final class SharedClaimLedger implements ClaimLedger, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SharedClaimLedger.class);

    private final StateStore store;
    private final String instanceId;
    private final Duration instanceTimeout;
    private final Duration callTimeout;
    private final String now;
    private final ExecutorService calls = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "lakesync-cu-ledger");
        thread.setDaemon(true);
        return thread;
    });
    /** The call in flight or last made; guarded by this. */
    @Nullable private CompletableFuture<?> lastCall;
    private volatile int liveInstances;

    public SharedClaimLedger(StateStore store, String instanceId, Duration instanceTimeout, Duration callTimeout) {
        this.store = store;
        this.instanceId = instanceId;
        this.instanceTimeout = instanceTimeout;
        this.callTimeout = callTimeout;
        this.now = store.kind().currentMillis();
        this.liveInstances = store.write(sql -> {
            int left = sql.update("DELETE FROM compute_unit_claim WHERE instance_id = ?", instanceId);
            if (left > 0) {
                LOG.info("Dropped {} CU claim(s) an earlier run of instance {} left", left, instanceId);
            }
            return countLive(sql);
        });
    }

    @Override
    public Answer claim(TablePath table, CapacityQuotas quotas) throws Unreachable {
        String database = table.getDatabaseName();
        CompletableFuture<Answer> answer = call(() -> store.<Answer>write(sql -> {
            boundStatements(sql);
            sql.queryFirst("SELECT name FROM compute_unit_ledger WHERE name = 'claims'" + store.kind().lockRows(),
                    row -> row.getString("name"));
            reclaimFromTheDead(sql);
            liveInstances = countLive(sql);
            int inCluster = count(sql, "SELECT COUNT(*) FROM compute_unit_claim");
            int inDatabase = count(sql, "SELECT COUNT(*) FROM compute_unit_claim WHERE database_name = ?", database);
            Refused refused = quotas.refusal(database, inCluster, inDatabase);
            if (refused != null) {
                return refused;
            }
            return new Granted(sql.insert(
                    "INSERT INTO compute_unit_claim (instance_id, table_name, database_name, claimed_at) "
                            + "VALUES (?, ?, ?, " + now + ")",
                    instanceId, table.toString(), database));
        }));
        try {
            return await(answer, "claim a CU");
        } catch (Unreachable e) {
            // Granted after all, too late for its round: give it back.
            answer.thenAccept(late -> {
                if (late instanceof Granted granted) {
                    releaseLate(granted.claimId());
                }
            });
            throw e;
        }
    }

    @Override
    public void release(long claimId) throws Unreachable {
        await(call(() -> delete(claimId)), "free a CU");
    }

    @Override
    public int liveInstances() {
        return liveInstances;
    }

    @Override
    public boolean answersAtOnce() {
        return false;
    }

    /** Drops what this instance still claims (its engine has stopped) and ends the ledger's thread. */
    @Override
    public void close() {
        try {
            await(call(() -> store.write(sql ->
                    sql.update("DELETE FROM compute_unit_claim WHERE instance_id = ?", instanceId))), "drop its claims");
        } catch (Unreachable e) {
            LOG.warn("Instance {} could not drop its CU claims; they are reclaimed once it counts as dead: {}",
                    instanceId, e.getMessage());
        } finally {
            calls.shutdownNow();
        }
    }

    private void releaseLate(long claimId) {
        try {
            delete(claimId);
        } catch (RuntimeException e) {
            LOG.warn("A CU claim granted too late stays until instance {} counts as dead: {}", instanceId, e.toString());
        }
    }

    private int delete(long claimId) {
        return store.write(sql -> {
            boundStatements(sql);
            return sql.update("DELETE FROM compute_unit_claim WHERE id = ?", claimId);
        });
    }

    /** Starts {@code work} on the ledger's thread, unless an earlier call has not answered yet. */
    private synchronized <T> CompletableFuture<T> call(Supplier<T> work) throws Unreachable {
        if (lastCall != null && !lastCall.isDone()) {
            throw new Unreachable("the state database has not answered an earlier CU call yet", null);
        }
        CompletableFuture<T> answer = CompletableFuture.supplyAsync(work, calls);
        lastCall = answer;
        return answer;
    }

    private <T> T await(CompletableFuture<T> answer, String what) throws Unreachable {
        try {
            return answer.get(callTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new Unreachable("the state database did not " + what + " within " + callTimeout.toMillis()
                    + " ms ('" + LakeSyncOptions.QUOTA_CLAIM_TIMEOUT.key() + "')", e);
        } catch (ExecutionException e) {
            throw new Unreachable("the state database could not " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unreachable("interrupted while waiting to " + what, e);
        }
    }

    /**
     * Ends a statement that waits far longer than its caller does (for a lock that a hung transaction holds) on the
     * server too, so the ledger's thread is free again soon after its caller gave up.
     */
    private void boundStatements(Sql sql) throws SQLException {
        if (store.kind() == DatabaseKind.POSTGRESQL) {
            sql.update("SET LOCAL statement_timeout = " + callTimeout.multipliedBy(2).toMillis());
        }
    }

    private void reclaimFromTheDead(Sql sql) throws SQLException {
        long timeout = instanceTimeout.toMillis();
        int reclaimed = sql.update(
                "DELETE FROM compute_unit_claim WHERE claimed_at < " + now + " - ? AND instance_id NOT IN ("
                        + "SELECT id FROM lakesync_instance WHERE stopped_at IS NULL AND heartbeat_at >= " + now + " - ?)",
                timeout, timeout);
        if (reclaimed > 0) {
            LOG.info("Reclaimed {} CU claim(s) of instances stopped or dead for longer than {} ms ('{}')", reclaimed,
                    timeout, LakeSyncOptions.CLUSTER_INSTANCE_TIMEOUT.key());
        }
    }

    private int countLive(Sql sql) throws SQLException {
        return Math.max(1, count(sql, "SELECT COUNT(*) FROM lakesync_instance WHERE stopped_at IS NULL AND heartbeat_at >= "
                + now + " - ?", instanceTimeout.toMillis()));
    }

    private static int count(Sql sql, String query, Object... params) throws SQLException {
        return sql.queryFirst(query, row -> row.getInt(1), params).orElse(0);
    }
}
