package io.lakesync.state;

import java.util.List;

/** Reads the audit log; changes write it themselves, in their own transaction, with {@link Sql#audit}. */
public interface AuditLog {

    /** The newest {@code limit} entries, newest first. */
    List<AuditEntry> recent(int limit);
}
