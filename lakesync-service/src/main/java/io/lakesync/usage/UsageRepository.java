package io.lakesync.usage;

import io.lakesync.state.StateStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Hourly usage per table in the state store, added to by every instance. */
class UsageRepository {

    /** How long a batch's key is kept: a batch retried later than that would be added again. */
    static final Duration KEEP_BATCH_KEYS = Duration.ofDays(7);

    private final StateStore store;
    private final String now;

    UsageRepository(StateStore store) {
        this.store = store;
        this.now = store.kind().currentMillis();
    }

    /**
     * Adds the batch's rows to what the store holds for their hour and table, and records its key, all in one
     * transaction; a batch whose key is recorded already was added before and is skipped. Returns whether it was
     * added now.
     */
    boolean add(UsageBatch batch) {
        return store.write(sql -> {
            sql.update("DELETE FROM usage_batch WHERE written_at < " + now + " - ?", KEEP_BATCH_KEYS.toMillis());
            if (sql.update("INSERT INTO usage_batch (batch_key, written_at) VALUES (?, " + now + ") "
                    + "ON CONFLICT (batch_key) DO NOTHING", batch.key()) == 0) {
                return false;
            }
            for (HourlyUsage u : batch.usage()) {
                sql.update(
                        "INSERT INTO table_usage (hour_start, database_name, table_name, rounds, cpu_seconds, "
                                + "memory_gib_seconds, cu_hours, rows_tiered, bytes_tiered) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                                + "ON CONFLICT (hour_start, database_name, table_name) DO UPDATE SET "
                                + "rounds = table_usage.rounds + excluded.rounds, "
                                + "cpu_seconds = table_usage.cpu_seconds + excluded.cpu_seconds, "
                                + "memory_gib_seconds = table_usage.memory_gib_seconds + excluded.memory_gib_seconds, "
                                + "cu_hours = table_usage.cu_hours + excluded.cu_hours, "
                                + "rows_tiered = table_usage.rows_tiered + excluded.rows_tiered, "
                                + "bytes_tiered = table_usage.bytes_tiered + excluded.bytes_tiered",
                        u.hour().toEpochMilli(), u.database(), u.table(), u.rounds(), u.cpuSeconds(),
                        u.memoryGibSeconds(), u.cuHours(), u.rows(), u.bytes());
            }
            return true;
        });
    }

    /** Every table's usage in the hours starting at or after {@code from} and before {@code to}. */
    List<HourlyUsage> between(Instant from, Instant to) {
        return store.read(sql -> sql.query(
                "SELECT * FROM table_usage WHERE hour_start >= ? AND hour_start < ? "
                        + "ORDER BY hour_start, database_name, table_name",
                row -> new HourlyUsage(
                        Instant.ofEpochMilli(row.getLong("hour_start")),
                        row.getString("database_name"),
                        row.getString("table_name"),
                        row.getLong("rounds"),
                        row.getDouble("cpu_seconds"),
                        row.getDouble("memory_gib_seconds"),
                        row.getDouble("cu_hours"),
                        row.getLong("rows_tiered"),
                        row.getLong("bytes_tiered")),
                from.toEpochMilli(), to.toEpochMilli()));
    }
}
