package io.lakesync.cluster;

import io.lakesync.state.DatabaseKind;
import io.lakesync.state.Sql;
import io.lakesync.state.StateStore;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.fluss.tiering.TableEpoch;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.annotation.Nullable;

/**
 * The instances registered in the shared state ({@code lakesync_instance}): each registers at start, refreshes its
 * row with every heartbeat (tables held, time) and marks it stopped on a clean stop. Listing derives whether each
 * is alive from its heartbeat's age, so a crashed instance shows as DEAD after {@code instanceTimeout}.
 *
 * <p>Every time here (start, heartbeat, stop, and the "now" a heartbeat's age is measured against) is the
 * database's ({@link DatabaseKind#currentMillis()}), never an instance's clock: a heartbeat stamped by one machine
 * and judged by another would make a live instance DEAD as soon as their clocks differ by the timeout.
 */
public final class Membership {

    private final StateStore store;
    private final String now;
    private final Duration instanceTimeout;

    public Membership(StateStore store, Duration instanceTimeout) {
        this.store = store;
        this.now = store.kind().currentMillis();
        this.instanceTimeout = instanceTimeout;
    }

    /**
     * Records {@code id} as started now (replacing an earlier row of the same id); returns that start, in the
     * database's time.
     */
    public Instant register(String id, String host, String url, String version, int capacity) {
        return store.write(sql -> {
            sql.update("DELETE FROM lakesync_instance WHERE id = ?", id);
            sql.update(
                    "INSERT INTO lakesync_instance (id, host, url, version, started_at, heartbeat_at, stopped_at, "
                            + "tables_held, held_epochs, capacity) VALUES (?, ?, ?, ?, " + now + ", " + now
                            + ", NULL, '', '', ?)",
                    id, host, url, version, capacity);
            return sql.queryFirst("SELECT started_at FROM lakesync_instance WHERE id = ?",
                    row -> Instant.ofEpochMilli(row.getLong("started_at")), id).orElseThrow();
        });
    }

    /** Refreshes the heartbeat of {@code id} and the tables it holds. */
    public void heartbeat(String id, Collection<TableAssignment> tablesHeld) {
        List<TableAssignment> sorted = tablesHeld.stream()
                .sorted(Comparator.comparing(a -> a.tablePath().toString()))
                .toList();
        store.write(sql -> sql.update(
                "UPDATE lakesync_instance SET heartbeat_at = " + now + ", tables_held = ?, held_epochs = ?, "
                        + "stopped_at = NULL WHERE id = ?",
                sorted.stream().map(a -> a.tablePath().toString()).collect(Collectors.joining(",")),
                sorted.stream().map(a -> a.tableId() + ":" + a.tieringEpoch()).collect(Collectors.joining(",")),
                id));
    }

    /** Marks {@code id} as cleanly stopped; it holds no table any more. */
    public void stopped(String id) {
        store.write(sql -> sql.update(
                "UPDATE lakesync_instance SET stopped_at = " + now + ", tables_held = '', held_epochs = '' WHERE id = ?",
                id));
    }

    /**
     * The tables that instances dead for longer than the timeout still held, per instance, as the coordinator's
     * table ids and tiering epochs.
     */
    public Map<String, List<TableEpoch>> tablesOfDeadInstances() {
        Map<String, List<TableEpoch>> held = new TreeMap<>();
        store.read(sql -> sql.query(
                "SELECT id, held_epochs FROM lakesync_instance "
                        + "WHERE stopped_at IS NULL AND heartbeat_at < " + now + " - ? AND held_epochs <> ''",
                row -> held.put(row.getString("id"), Arrays.stream(row.getString("held_epochs").split(","))
                        .map(e -> new TableEpoch(Long.parseLong(e.substring(0, e.indexOf(':'))),
                                Long.parseLong(e.substring(e.indexOf(':') + 1))))
                        .toList()),
                instanceTimeout.toMillis()));
        return held;
    }

    /**
     * Records that the tables a dead instance held were handed back, and that the rounds it was running are over
     * (its tables no longer show as syncing); unless it came back meanwhile.
     */
    public void releaseTablesOf(String deadId) {
        store.write(sql -> {
            int released = sql.update(
                    "UPDATE lakesync_instance SET tables_held = '', held_epochs = '' "
                            + "WHERE id = ? AND heartbeat_at < " + now + " - ?",
                    deadId, instanceTimeout.toMillis());
            if (released == 1) {
                sql.update("UPDATE table_activity SET syncing = FALSE WHERE holder = ? AND syncing", deadId);
            }
            return released;
        });
    }

    /**
     * Every registered instance, alive ones first, then by id; {@code leaderId} (may be null) is marked as leader.
     */
    public List<ClusterInstance> list(@Nullable String leaderId) {
        return store.read(sql -> sql.query(
                        "SELECT id, host, url, version, started_at, heartbeat_at, stopped_at, tables_held, capacity, "
                                + now + " AS db_now FROM lakesync_instance ORDER BY id",
                        row -> map(row, leaderId)))
                .stream()
                .sorted((a, b) -> a.state() == b.state() ? a.id().compareTo(b.id()) : a.state().compareTo(b.state()))
                .toList();
    }

    /** Whether the state is the single-instance SQLite default. */
    public boolean singleInstanceStore() {
        return store.kind() == DatabaseKind.SQLITE;
    }

    private ClusterInstance map(ResultSet row, @Nullable String leaderId) throws SQLException {
        Instant now = Instant.ofEpochMilli(row.getLong("db_now"));
        Instant heartbeat = Instant.ofEpochMilli(row.getLong("heartbeat_at"));
        Long stopped = Sql.nullableLong(row, "stopped_at");
        ClusterInstance.State state = stopped != null ? ClusterInstance.State.STOPPED
                : heartbeat.plus(instanceTimeout).isBefore(now) ? ClusterInstance.State.DEAD
                : ClusterInstance.State.ALIVE;
        String held = row.getString("tables_held");
        String id = row.getString("id");
        return new ClusterInstance(
                id,
                row.getString("host"),
                row.getString("url"),
                row.getString("version"),
                Instant.ofEpochMilli(row.getLong("started_at")),
                heartbeat,
                Math.max(0, Duration.between(heartbeat, now).toMillis()),
                stopped == null ? null : Instant.ofEpochMilli(stopped),
                held.isEmpty() ? List.of() : Arrays.asList(held.split(",")),
                row.getInt("capacity"),
                state,
                state == ClusterInstance.State.ALIVE && id.equals(leaderId));
    }
}
