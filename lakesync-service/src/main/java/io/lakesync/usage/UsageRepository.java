package io.lakesync.usage;

import io.lakesync.state.StateStore;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

/** Hourly usage per table in the state store, added to by every instance. */
final class UsageRepository {

    private final StateStore store;

    UsageRepository(StateStore store) {
        this.store = store;
    }

    /** Adds the rows to what the store holds for their hour and table, all in one transaction. */
    void add(Collection<HourlyUsage> usage) {
        store.write(sql -> {
            for (HourlyUsage u : usage) {
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
            return null;
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
