package io.lakesync.alert;

import io.lakesync.metrics.TableMetric;
import io.lakesync.state.Sql;
import io.lakesync.state.StateStore;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link AlertRuleRepository} over {@code alert_rule} and {@code alert_rule_channel}. */
final class JdbcAlertRuleRepository implements AlertRuleRepository {

    private static final String SELECT = "SELECT name, metric, comparison, threshold, window_ms, for_ms, table_scope, "
            + "severity, enabled, description FROM alert_rule";

    private final StateStore store;

    JdbcAlertRuleRepository(StateStore store) {
        this.store = store;
    }

    @Override
    public List<AlertRule> list() {
        return store.read(sql -> {
            Map<String, List<String>> channels = channelsByRule(sql);
            return sql.query(SELECT + " ORDER BY name", row -> map(row, channels));
        });
    }

    @Override
    public Optional<AlertRule> get(String name) {
        return store.read(sql -> {
            Map<String, List<String>> channels = channelsByRule(sql);
            return sql.queryFirst(SELECT + " WHERE name = ?", row -> map(row, channels), name);
        });
    }

    @Override
    public boolean save(AlertRule rule, String actor) {
        return store.write(sql -> {
            List<String> known =
                    sql.query("SELECT name FROM notification_channel ORDER BY name", row -> row.getString(1));
            List<String> unknown = new ArrayList<>(rule.channels());
            unknown.removeAll(known);
            if (!unknown.isEmpty()) {
                throw new InvalidAlertConfigException("Alert rule '" + rule.name() + "'", "channels",
                        "names unknown channel(s) " + String.join(", ", unknown) + "; existing channels: "
                                + String.join(", ", known) + ".");
            }
            boolean exists = sql.queryFirst("SELECT name FROM alert_rule WHERE name = ?", row -> true, rule.name())
                    .isPresent();
            long now = sql.nowMillis();
            Long windowMs = rule.window() == null ? null : rule.window().toMillis();
            if (exists) {
                sql.update("UPDATE alert_rule SET metric = ?, comparison = ?, threshold = ?, window_ms = ?, "
                                + "for_ms = ?, table_scope = ?, severity = ?, enabled = ?, description = ?, "
                                + "updated_at = ? WHERE name = ?",
                        rule.metric().id(), rule.comparison().symbol(), rule.threshold(), windowMs,
                        rule.forDuration().toMillis(), rule.tables().text(), rule.severity().name(), rule.enabled(),
                        rule.description(), now, rule.name());
                sql.update("DELETE FROM alert_rule_channel WHERE rule_name = ?", rule.name());
            } else {
                sql.update("INSERT INTO alert_rule (name, metric, comparison, threshold, window_ms, for_ms, "
                                + "table_scope, severity, enabled, description, created_at, updated_at) "
                                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        rule.name(), rule.metric().id(), rule.comparison().symbol(), rule.threshold(), windowMs,
                        rule.forDuration().toMillis(), rule.tables().text(), rule.severity().name(), rule.enabled(),
                        rule.description(), now, now);
            }
            for (String channel : rule.channels()) {
                sql.update("INSERT INTO alert_rule_channel (rule_name, channel_name) VALUES (?, ?)",
                        rule.name(), channel);
            }
            sql.audit(actor, exists ? "alert-rule.update" : "alert-rule.create", rule.name(), rule.summary());
            return !exists;
        });
    }

    @Override
    public boolean delete(String name, String actor) {
        return store.write(sql -> {
            sql.update("DELETE FROM alert_rule_channel WHERE rule_name = ?", name);
            boolean deleted = sql.update("DELETE FROM alert_rule WHERE name = ?", name) > 0;
            if (deleted) {
                sql.audit(actor, "alert-rule.delete", name, "");
            }
            return deleted;
        });
    }

    private static Map<String, List<String>> channelsByRule(Sql sql) throws SQLException {
        Map<String, List<String>> channels = new HashMap<>();
        sql.query("SELECT rule_name, channel_name FROM alert_rule_channel", row -> channels
                .computeIfAbsent(row.getString("rule_name"), rule -> new ArrayList<>())
                .add(row.getString("channel_name")));
        return channels;
    }

    private static AlertRule map(ResultSet row, Map<String, List<String>> channels) throws SQLException {
        String name = row.getString("name");
        String metric = row.getString("metric");
        String comparison = row.getString("comparison");
        Long windowMs = Sql.nullableLong(row, "window_ms");
        return new AlertRule(
                name,
                TableMetric.byName(metric).orElseThrow(() -> new IllegalStateException(
                        "Stored alert rule '" + name + "' watches unknown metric '" + metric + "'")),
                Comparison.bySymbol(comparison).orElseThrow(() -> new IllegalStateException(
                        "Stored alert rule '" + name + "' has unknown comparison '" + comparison + "'")),
                row.getDouble("threshold"),
                windowMs == null ? null : Duration.ofMillis(windowMs),
                Duration.ofMillis(row.getLong("for_ms")),
                TableScope.parse(row.getString("table_scope"), "Stored alert rule '" + name + "'"),
                Severity.valueOf(row.getString("severity")),
                channels.getOrDefault(name, List.of()),
                row.getBoolean("enabled"),
                row.getString("description"));
    }
}
