package io.lakesync.cluster;

import io.lakesync.state.DatabaseKind;
import io.lakesync.state.Sql;
import io.lakesync.state.StateStore;
import io.lakesync.status.ActivityBoard;
import io.lakesync.status.ActivityChange;
import io.lakesync.status.EngineActivity;
import io.lakesync.tiering.FailureKind;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import javax.annotation.Nullable;

/**
 * The {@link ActivityBoard} in the shared state ({@code table_activity}): one row per table for all instances.
 * An event is read, applied and written back in one transaction that holds the table's row locked (created first
 * if missing), so two instances recording around a hand-over add to each other's totals instead of overwriting them.
 *
 * <p>{@code updated_at} is the database's time ({@link DatabaseKind#currentMillis()}), since whether a table was
 * recorded after another instance's listing is decided by comparing it (see {@link #forget}); the times inside an
 * activity (round end, next retry) are the recording instance's, for display.
 */
public final class SharedActivityBoard implements ActivityBoard {

    private static final String COLUMNS = "table_name, holder, syncing, consecutive_failures, last_failure_kind, "
            + "last_error, next_retry_at, rounds, failures, rows_tiered, bytes_tiered, files_written, last_round_ms, "
            + "last_round_ended_at, last_round_rows_per_sec, updated_at";
    private static final int MAX_ERROR_LENGTH = 4096;
    /** How long a batch's key is kept: far longer than a batch is retried, which is while the database is away. */
    private static final Duration KEEP_BATCH_KEYS = Duration.ofDays(7);

    private final StateStore store;
    private final String self;
    private final String now;
    private final String insertIfMissing;
    private final String upsert;
    private final String selectLocked;

    public SharedActivityBoard(StateStore store, String self) {
        this.store = store;
        this.self = self;
        this.now = store.kind().currentMillis();
        String insert = "INSERT INTO table_activity (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                + now + ") ON CONFLICT (table_name) DO ";
        this.insertIfMissing = insert + "NOTHING";
        this.upsert = insert + "UPDATE SET " + String.join(", ", List.of(COLUMNS.split(", ")).subList(1, 16).stream()
                .map(c -> c + " = excluded." + c).toList());
        this.selectLocked = "SELECT " + COLUMNS + " FROM table_activity WHERE table_name = ?" + store.kind().lockRows();
    }

    @Override
    public String self() {
        return self;
    }

    @Override
    public Optional<EngineActivity> get(String table) {
        return store.read(sql -> sql.queryFirst(
                "SELECT " + COLUMNS + " FROM table_activity WHERE table_name = ?", SharedActivityBoard::map, table));
    }

    /**
     * The batch's key is recorded in {@code activity_batch} in the same transaction, so a batch tried again after a
     * commit that reported an error finds it and is skipped. Tables are locked in name order, so two instances
     * writing batches of the same tables wait for each other instead of deadlocking.
     */
    @Override
    public boolean apply(String batchKey, Map<String, ActivityChange> changes) {
        return store.write(sql -> {
            sql.update("DELETE FROM activity_batch WHERE written_at < " + now + " - ?", KEEP_BATCH_KEYS.toMillis());
            if (sql.update("INSERT INTO activity_batch (batch_key, written_at) VALUES (?, " + now + ") "
                    + "ON CONFLICT (batch_key) DO NOTHING", batchKey) == 0) {
                return false;
            }
            for (Map.Entry<String, ActivityChange> change : new TreeMap<>(changes).entrySet()) {
                String table = change.getKey();
                // A row to lock: a first event of the table waits here for a concurrent first one, then reads it.
                sql.update(insertIfMissing, row(table, EngineActivity.NONE));
                EngineActivity current = sql.queryFirst(selectLocked, SharedActivityBoard::map, table).orElseThrow();
                sql.update(upsert, row(table, change.getValue().applyTo(current, self)));
            }
            return true;
        });
    }

    private static Object[] row(String table, EngineActivity a) {
        String error = a.lastError() == null || a.lastError().length() <= MAX_ERROR_LENGTH
                ? a.lastError() : a.lastError().substring(0, MAX_ERROR_LENGTH);
        return new Object[] {
            table, a.holder(), a.syncing(), a.consecutiveFailures(),
            a.lastFailureKind() == null ? null : a.lastFailureKind().name(), error, millis(a.nextRetryAt()),
            a.rounds(), a.failures(), a.rowsTiered(), a.bytesTiered(), a.filesWritten(),
            a.lastRoundDuration() == null ? null : a.lastRoundDuration().toMillis(), millis(a.lastRoundEndedAt()),
            a.lastRoundRowsPerSecond()
        };
    }

    @Override
    public Map<String, EngineActivity> all() {
        Map<String, EngineActivity> all = new HashMap<>();
        store.read(sql -> sql.query("SELECT " + COLUMNS + " FROM table_activity", row -> {
            all.put(row.getString("table_name"), map(row));
            return null;
        }));
        return all;
    }

    /**
     * The listing's time is this instance's, the rows' the database's: the time since the listing, measured on this
     * instance's clock (that of the state store, the one its status uses), is counted back from the database's now.
     */
    @Override
    public void forget(Set<String> dropped, Instant listedAt) {
        store.write(sql -> {
            long sinceListing = sql.nowMillis() - listedAt.toEpochMilli();
            for (String name : dropped) {
                sql.update("DELETE FROM table_activity WHERE table_name = ? AND updated_at < " + now + " - ?", name,
                        sinceListing);
            }
            return null;
        });
    }

    @Nullable
    private static Long millis(@Nullable Instant at) {
        return at == null ? null : at.toEpochMilli();
    }

    @Nullable
    private static Instant instant(ResultSet row, String column) throws SQLException {
        Long millis = Sql.nullableLong(row, column);
        return millis == null ? null : Instant.ofEpochMilli(millis);
    }

    private static EngineActivity map(ResultSet row) throws SQLException {
        String kind = row.getString("last_failure_kind");
        Long roundMs = Sql.nullableLong(row, "last_round_ms");
        return new EngineActivity(
                row.getBoolean("syncing"),
                row.getInt("consecutive_failures"),
                kind == null ? null : FailureKind.valueOf(kind),
                row.getString("last_error"),
                instant(row, "next_retry_at"),
                row.getLong("rounds"),
                row.getLong("failures"),
                row.getLong("rows_tiered"),
                row.getLong("bytes_tiered"),
                row.getLong("files_written"),
                roundMs == null ? null : Duration.ofMillis(roundMs),
                instant(row, "last_round_ended_at"),
                row.getDouble("last_round_rows_per_sec"),
                row.getString("holder"),
                null);
    }
}
