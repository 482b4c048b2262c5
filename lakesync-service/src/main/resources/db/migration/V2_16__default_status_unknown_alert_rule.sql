-- The built-in alert rule, created once with a fresh state and then visible, editable and deletable like any other:
-- it fires once a table's state has been UNKNOWN for a minute (lakesync cannot observe it: Fluss or the lake does
-- not answer), so that a passing failure does not page anyone.
INSERT INTO alert_rule (name, metric, comparison, threshold, window_ms, for_ms, table_scope, severity, enabled,
                        description, created_at, updated_at)
VALUES ('table-status-unknown', 'stateUnknown', '>', 0, NULL, 60000, '*', 'WARNING', TRUE,
        'Built in: lakesync cannot observe the table (Fluss or the lake does not answer), so its sync state is unknown.',
        0, 0);
INSERT INTO alert_rule_channel (rule_name, channel_name) VALUES ('table-status-unknown', 'log');
