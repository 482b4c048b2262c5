package io.lakesync.cluster;

import io.lakesync.config.LakeSyncOptions;
import io.lakesync.state.DatabaseKind;
import io.lakesync.state.Sql;
import io.lakesync.state.StateStore;
import io.lakesync.tiering.capacity.CapacityQuotas;
import io.lakesync.tiering.capacity.ClaimLedger;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * database, and inserts one if both quotas have a CU free after the rounds that have waited longer took theirs.
 * A refused round waits in one line for the whole cluster ({@code compute_unit_waiter}), so a saturated quota is
 * shared in turn between instances, not won by whichever asks right after a CU frees. A release deletes the row.
 *
 * <pre>
 *   claim ──► lock the ledger row ──► reclaim the dead's ──► count ──► a CU free after the line ──► insert ──► GRANTED
 *                                                                        └── none ──► join or stay in line ──► REFUSED
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
    /** How long a refused round stays in line without asking again. */
    private final Duration waiterTimeout;
    private final String now;
    private final ExecutorService calls = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "lakesync-cu-ledger");
        thread.setDaemon(true);
        return thread;
    });
    /** The call in flight or last made; guarded by this. */
    @Nullable private CompletableFuture<?> lastCall;
    private volatile int liveInstances;

    /**
     * @param retryInterval how often a refused round asks again ({@code quota.claim-retry-interval}): one that has
     *     not asked for three of them, and a call timeout, has left the line
     */
    public SharedClaimLedger(StateStore store, String instanceId, Duration instanceTimeout, Duration callTimeout,
            Duration retryInterval) {
        this.store = store;
        this.instanceId = instanceId;
        this.instanceTimeout = instanceTimeout;
        this.callTimeout = callTimeout;
        this.waiterTimeout = retryInterval.multipliedBy(3).plus(callTimeout);
        this.now = store.kind().currentMillis();
        this.liveInstances = store.write(sql -> {
            sql.update("DELETE FROM compute_unit_waiter WHERE instance_id = ?", instanceId);
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
            sql.update("DELETE FROM compute_unit_waiter WHERE asked_at < " + now + " - ?", waiterTimeout.toMillis());
            liveInstances = countLive(sql);
            Map<String, Integer> inUse = new HashMap<>();
            for (String claimed : sql.query("SELECT database_name FROM compute_unit_claim", row -> row.getString(1))) {
                inUse.merge(claimed, 1, Integer::sum);
            }
            int inCluster = inUse.values().stream().mapToInt(Integer::intValue).sum();
            Refused refused = quotas.refusal(database, inCluster, inUse.getOrDefault(database, 0));
            if (refused == null) {
                refused = servedFirst(sql, table, quotas, inCluster, inUse);
            }
            if (refused != null) {
                waitInLine(sql, table);
                return refused;
            }
            sql.update("DELETE FROM compute_unit_waiter WHERE instance_id = ? AND table_name = ?",
                    instanceId, table.toString());
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
                    sql.update("DELETE FROM compute_unit_waiter WHERE instance_id = ?", instanceId)
                            + sql.update("DELETE FROM compute_unit_claim WHERE instance_id = ?", instanceId))),
                    "drop its claims");
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

    /**
     * Whether rounds that have waited longer, on any instance, take the free CUs first: each waiter in the order
     * it first asked takes a CU if the quotas leave it one (a waiter whose database is full does not); the round
     * asking now is refused if none is left for it. A round that is not waiting yet comes after every waiter.
     */
    @Nullable
    private Refused servedFirst(Sql sql, TablePath table, CapacityQuotas quotas, int inCluster,
            Map<String, Integer> inUse) throws SQLException {
        long since = sql.queryFirst("SELECT waiting_since FROM compute_unit_waiter WHERE instance_id = ? AND table_name = ?",
                row -> row.getLong(1), instanceId, table.toString()).orElse(Long.MAX_VALUE);
        List<String> ahead = sql.query("SELECT database_name FROM compute_unit_waiter WHERE waiting_since < ? OR "
                        + "(waiting_since = ? AND (instance_id < ? OR (instance_id = ? AND table_name < ?))) "
                        + "ORDER BY waiting_since, instance_id, table_name",
                row -> row.getString(1), since, since, instanceId, instanceId, table.toString());
        Map<String, Integer> reserved = new HashMap<>(inUse);
        int inLine = inCluster;
        int servedBefore = 0;
        for (String waiterDatabase : ahead) {
            if (quotas.refusal(waiterDatabase, inLine, reserved.getOrDefault(waiterDatabase, 0)) == null) {
                inLine++;
                reserved.merge(waiterDatabase, 1, Integer::sum);
                servedBefore++;
            }
        }
        String database = table.getDatabaseName();
        Refused refused = quotas.refusal(database, inLine, reserved.getOrDefault(database, 0));
        if (refused == null) {
            return null;
        }
        return new Refused(refused.byDatabase(), "Waiting in line: " + servedBefore + " round(s) that asked before it, "
                + "on any instance, get the free CUs first. " + refused.reason());
    }

    /** Puts the table in the line (at the end, the first time it is refused) and notes that it asked again. */
    private void waitInLine(Sql sql, TablePath table) throws SQLException {
        int asked = sql.update("UPDATE compute_unit_waiter SET asked_at = " + now
                + " WHERE instance_id = ? AND table_name = ?", instanceId, table.toString());
        if (asked == 0) {
            sql.update("INSERT INTO compute_unit_waiter (instance_id, table_name, database_name, waiting_since, asked_at) "
                    + "VALUES (?, ?, ?, " + now + ", " + now + ")", instanceId, table.toString(), table.getDatabaseName());
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
