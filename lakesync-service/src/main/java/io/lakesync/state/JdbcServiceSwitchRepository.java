package io.lakesync.state;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/** {@link ServiceSwitchRepository} over the single row {@code id = 1} of {@code service_switch}. */
final class JdbcServiceSwitchRepository implements ServiceSwitchRepository {

    private final StateStore store;

    JdbcServiceSwitchRepository(StateStore store) {
        this.store = store;
    }

    @Override
    public Optional<ServiceSwitch> get() {
        return store.read(sql -> sql.queryFirst(
                "SELECT enabled, changed_by, changed_at, reason FROM service_switch WHERE id = 1",
                JdbcServiceSwitchRepository::map));
    }

    @Override
    public ServiceSwitch set(boolean enabled, String actor, String reason) {
        return store.write(sql -> {
            long now = sql.nowMillis();
            sql.update(
                    "INSERT INTO service_switch (id, enabled, changed_by, changed_at, reason) VALUES (1, ?, ?, ?, ?) "
                            + "ON CONFLICT (id) DO UPDATE SET enabled = excluded.enabled, "
                            + "changed_by = excluded.changed_by, changed_at = excluded.changed_at, "
                            + "reason = excluded.reason",
                    enabled, actor, now, reason);
            sql.audit(actor, enabled ? "service.enable" : "service.disable", "cluster", reason);
            return new ServiceSwitch(enabled, actor, Instant.ofEpochMilli(now), reason);
        });
    }

    private static ServiceSwitch map(ResultSet row) throws SQLException {
        return new ServiceSwitch(
                row.getBoolean("enabled"),
                row.getString("changed_by"),
                Instant.ofEpochMilli(row.getLong("changed_at")),
                row.getString("reason"));
    }
}
