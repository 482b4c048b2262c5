package io.lakesync.state;

import java.time.Instant;
import java.util.List;

/** {@link AuditLog} over the {@code audit_log} table. */
final class JdbcAuditLog implements AuditLog {

    private final StateStore store;

    JdbcAuditLog(StateStore store) {
        this.store = store;
    }

    @Override
    public List<AuditEntry> recent(int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("The audit log limit must be positive, got " + limit + ".");
        }
        return store.read(sql -> sql.query(
                "SELECT id, at, actor, action, target, detail FROM audit_log ORDER BY id DESC LIMIT ?",
                row -> new AuditEntry(
                        row.getLong("id"),
                        Instant.ofEpochMilli(row.getLong("at")),
                        row.getString("actor"),
                        row.getString("action"),
                        row.getString("target"),
                        row.getString("detail")),
                limit));
    }
}
