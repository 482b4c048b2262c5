package io.lakesync.cluster;

import io.lakesync.state.DatabaseKind;
import io.lakesync.state.StateStore;
import java.time.Duration;
import java.util.Optional;

/**
 * A lease row in the shared state ({@code cluster_lease}) that at most one instance holds at a time: the holder
 * renews it before it expires, and once it expired (the holder died or stalled) any instance may take it. Both
 * take and renew are one conditional statement, so two instances racing for it cannot both win, on PostgreSQL
 * and SQLite alike.
 *
 * <p>Expiry is stamped and judged in the database's time ({@link DatabaseKind#currentMillis()}) alone: were each
 * instance to use its own clock, one whose clock runs ahead would find a live holder's lease expired and take it,
 * and there would be two leaders.
 */
public final class LeaderLease {

    private final StateStore store;
    private final String name;
    private final String now;
    private final Duration ttl;

    public LeaderLease(StateStore store, String name, Duration ttl) {
        this.store = store;
        this.name = name;
        this.now = store.kind().currentMillis();
        this.ttl = ttl;
    }

    /** Takes or renews the lease for {@code holder}; returns whether it holds it now, for {@link #ttl()}. */
    public boolean tryHold(String holder) {
        long ttlMillis = ttl.toMillis();
        return store.write(sql -> {
            int renewed = sql.update(
                    "UPDATE cluster_lease SET acquired_at = CASE WHEN holder = ? THEN acquired_at ELSE " + now
                            + " END, holder = ?, expires_at = " + now + " + ? "
                            + "WHERE name = ? AND (holder = ? OR expires_at < " + now + ")",
                    holder, holder, ttlMillis, name, holder);
            if (renewed == 1) {
                return true;
            }
            return sql.update(
                    "INSERT INTO cluster_lease (name, holder, expires_at, acquired_at) VALUES (?, ?, " + now
                            + " + ?, " + now + ") ON CONFLICT (name) DO NOTHING",
                    name, holder, ttlMillis) == 1;
        });
    }

    /** Gives the lease up at once if {@code holder} holds it, so another instance need not wait for it to expire. */
    public void release(String holder) {
        store.write(sql -> sql.update("DELETE FROM cluster_lease WHERE name = ? AND holder = ?", name, holder));
    }

    /** The instance holding an unexpired lease, if any. */
    public Optional<String> holder() {
        return store.read(sql -> sql.queryFirst(
                "SELECT holder FROM cluster_lease WHERE name = ? AND expires_at >= " + now,
                row -> row.getString("holder"), name));
    }

    public Duration ttl() {
        return ttl;
    }
}
