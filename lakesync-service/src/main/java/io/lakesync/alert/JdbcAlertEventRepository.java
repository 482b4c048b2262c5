package io.lakesync.alert;

import io.lakesync.state.Sql;
import io.lakesync.state.StateStore;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** {@link AlertEventRepository} over {@code alert_event}, {@code active_alert} and {@code notification_delivery}. */
final class JdbcAlertEventRepository implements AlertEventRepository {

    private static final String EVENT_COLUMNS = "e.id, e.rule_name, e.table_name, e.state, e.severity, e.metric, "
            + "e.rule_condition, e.value, e.at, e.fired_at, e.channels, e.message";
    private static final String SELECT_ACTIVE = "SELECT " + EVENT_COLUMNS
            + " FROM active_alert a JOIN alert_event e ON e.id = a.firing_event_id";

    private final StateStore store;

    JdbcAlertEventRepository(StateStore store) {
        this.store = store;
    }

    @Override
    public Optional<AlertEvent> fire(AlertEvent firing) {
        if (firing.state() != AlertEvent.State.FIRING) {
            throw new IllegalArgumentException("fire() takes a FIRING event, got " + firing.state());
        }
        return store.write(sql -> {
            // Claiming the row first makes a concurrent claim by another instance wait for this transaction and
            // then find the row taken.
            int claimed = sql.update("INSERT INTO active_alert (rule_name, table_name, firing_event_id) "
                    + "VALUES (?, ?, 0) ON CONFLICT (rule_name, table_name) DO NOTHING", firing.rule(), firing.table());
            if (claimed == 0) {
                return Optional.empty();
            }
            long id = insert(sql, firing);
            sql.update("UPDATE active_alert SET firing_event_id = ? WHERE rule_name = ? AND table_name = ?",
                    id, firing.rule(), firing.table());
            return Optional.of(firing.withId(id));
        });
    }

    @Override
    public Optional<AlertEvent> resolve(String rule, String table, Double value, Instant at, String message) {
        return store.write(sql -> {
            Optional<AlertEvent> firing = sql.queryFirst(SELECT_ACTIVE + " WHERE a.rule_name = ? AND a.table_name = ?",
                    JdbcAlertEventRepository::map, rule, table);
            if (firing.isEmpty()) {
                return Optional.empty();
            }
            int released = sql.update(
                    "DELETE FROM active_alert WHERE rule_name = ? AND table_name = ? AND firing_event_id = ?",
                    rule, table, firing.get().id());
            if (released == 0) {
                return Optional.empty();
            }
            AlertEvent fired = firing.get();
            AlertEvent resolved = new AlertEvent(0, rule, table, AlertEvent.State.RESOLVED, fired.severity(),
                    fired.metric(), fired.condition(), value, at, fired.firedAt(), fired.channels(), message);
            return Optional.of(resolved.withId(insert(sql, resolved)));
        });
    }

    @Override
    public List<AlertEvent> active() {
        return store.read(sql -> sql.query(SELECT_ACTIVE + " ORDER BY e.id", JdbcAlertEventRepository::map));
    }

    @Override
    public List<AlertEvent> history(AlertHistoryQuery query) {
        StringBuilder where = new StringBuilder(" WHERE 1 = 1");
        List<Object> params = new ArrayList<>();
        if (query.rule() != null) {
            where.append(" AND e.rule_name = ?");
            params.add(query.rule());
        }
        if (query.table() != null) {
            where.append(" AND e.table_name = ?");
            params.add(query.table());
        }
        if (query.since() != null) {
            where.append(" AND e.at >= ?");
            params.add(query.since().toEpochMilli());
        }
        params.add(query.limit());
        return store.read(sql -> sql.query(
                "SELECT " + EVENT_COLUMNS + " FROM alert_event e" + where + " ORDER BY e.id DESC LIMIT ?",
                JdbcAlertEventRepository::map, params.toArray()));
    }

    @Override
    public void recordDelivery(long eventId, String channel, DeliveryOutcome outcome) {
        store.write(sql -> sql.insert("INSERT INTO notification_delivery (event_id, channel_name, delivered, attempts, "
                        + "detail, at) VALUES (?, ?, ?, ?, ?, ?)",
                eventId, channel, outcome.delivered(), outcome.attempts(), outcome.detail(), sql.nowMillis()));
    }

    @Override
    public List<DeliveryRecord> deliveries(long eventId) {
        return store.read(sql -> sql.query(
                "SELECT event_id, channel_name, delivered, attempts, detail, at FROM notification_delivery "
                        + "WHERE event_id = ? ORDER BY id",
                row -> new DeliveryRecord(
                        row.getLong("event_id"),
                        row.getString("channel_name"),
                        new DeliveryOutcome(
                                row.getBoolean("delivered"), row.getInt("attempts"), row.getString("detail")),
                        Instant.ofEpochMilli(row.getLong("at"))),
                eventId));
    }

    private static long insert(Sql sql, AlertEvent event) throws SQLException {
        return sql.insert("INSERT INTO alert_event (rule_name, table_name, state, severity, metric, rule_condition, "
                        + "value, at, fired_at, channels, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                event.rule(), event.table(), event.state().name(), event.severity().name(), event.metric(),
                event.condition(), event.value(), event.at().toEpochMilli(), event.firedAt().toEpochMilli(),
                String.join(",", event.channels()), event.message());
    }

    private static AlertEvent map(ResultSet row) throws SQLException {
        String channels = row.getString("channels");
        return new AlertEvent(
                row.getLong("id"),
                row.getString("rule_name"),
                row.getString("table_name"),
                AlertEvent.State.valueOf(row.getString("state")),
                Severity.valueOf(row.getString("severity")),
                row.getString("metric"),
                row.getString("rule_condition"),
                Sql.nullableDouble(row, "value"),
                Instant.ofEpochMilli(row.getLong("at")),
                Instant.ofEpochMilli(row.getLong("fired_at")),
                channels.isEmpty() ? List.of() : Arrays.asList(channels.split(",")),
                row.getString("message"));
    }
}
