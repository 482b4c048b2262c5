package io.lakesync.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.testing.ManualClock;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every state database must do; one subclass per supported database runs it for real. */
abstract class StateStoreContract {

    protected final ManualClock clock = new ManualClock(Instant.parse("2025-01-01T00:00:00Z"));
    protected StateStore store;

    /** Opens a store on an empty database that {@link #reopen()} opens again. */
    protected abstract StateStore openFresh() throws Exception;

    /** Opens a second store on the database {@link #openFresh()} created, like a restarted instance would. */
    protected abstract StateStore reopen();

    @BeforeEach
    void open() throws Exception {
        store = openFresh();
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void serviceSwitchIsUnsetUntilSomebodySetsIt() {
        assertThat(store.serviceSwitch().get()).isEmpty();

        clock.advance(Duration.ofMinutes(5));
        ServiceSwitch set = store.serviceSwitch().set(true, "alice", "go live");

        assertThat(set).isEqualTo(
                new ServiceSwitch(true, "alice", Instant.parse("2025-01-01T00:05:00Z"), "go live"));
        assertThat(store.serviceSwitch().get()).contains(set);
    }

    @Test
    void serviceSwitchKeepsTheLastChangeAndAuditsEach() {
        store.serviceSwitch().set(true, "alice", "go live");
        clock.advance(Duration.ofHours(1));
        store.serviceSwitch().set(false, "bob", "maintenance");

        assertThat(store.serviceSwitch().get()).contains(
                new ServiceSwitch(false, "bob", Instant.parse("2025-01-01T01:00:00Z"), "maintenance"));
        assertThat(store.auditLog().recent(10))
                .extracting(AuditEntry::actor, AuditEntry::action, AuditEntry::target, AuditEntry::detail)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("bob", "service.disable", "cluster", "maintenance"),
                        org.assertj.core.groups.Tuple.tuple("alice", "service.enable", "cluster", "go live"));
    }

    @Test
    void stateSurvivesAReopenWithoutMigratingAgain() {
        store.serviceSwitch().set(true, "alice", "go live");
        store.close();

        store = reopen();

        assertThat(store.serviceSwitch().get()).map(ServiceSwitch::changedBy).contains("alice");
    }

    @Test
    void auditLogListsNewestFirstUpToTheLimit() {
        for (int i = 1; i <= 5; i++) {
            int n = i;
            clock.advance(Duration.ofSeconds(1));
            store.write(sql -> {
                sql.audit("carol", "test.change", "thing-" + n, "detail " + n);
                return null;
            });
        }

        List<AuditEntry> recent = store.auditLog().recent(3);

        assertThat(recent).extracting(AuditEntry::target).containsExactly("thing-5", "thing-4", "thing-3");
        assertThat(recent.get(0).at()).isEqualTo(Instant.parse("2025-01-01T00:00:05Z"));
        assertThat(recent.get(0).id()).isGreaterThan(recent.get(1).id());
    }

    @Test
    void auditLogRefusesANonPositiveLimit() {
        assertThatThrownBy(() -> store.auditLog().recent(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be positive, got 0");
    }

    @Test
    void aFailedWriteLeavesNothingBehind() {
        assertThatThrownBy(() -> store.write(sql -> {
            sql.audit("dave", "test.change", "half-done", "");
            throw new IllegalStateException("boom");
        })).isInstanceOf(IllegalStateException.class).hasMessage("boom");

        assertThat(store.auditLog().recent(10)).isEmpty();
    }

    @Test
    void aRefusedStatementNamesTheDatabase() {
        assertThatThrownBy(() -> store.read(sql -> sql.query("SELECT * FROM no_such_table", row -> 1)))
                .isInstanceOf(StateStoreException.class)
                .hasMessageContaining(store.jdbcUrl())
                .hasCauseInstanceOf(SQLException.class);
    }

    @Test
    void nullableColumnsReadBackAsNull() {
        store.write(sql -> sql.update(
                "INSERT INTO alert_rule (name, metric, comparison, threshold, window_ms, for_ms, table_scope, "
                        + "severity, enabled, description, created_at, updated_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                "r", "pendingRecords", ">", 1.5, null, 0L, "*", "INFO", true, "", 0L, 0L));

        List<Object[]> rows = store.read(sql -> sql.query(
                "SELECT window_ms, threshold FROM alert_rule WHERE name = ?",
                row -> new Object[] {Sql.nullableLong(row, "window_ms"), Sql.nullableDouble(row, "threshold")},
                "r"));

        assertThat(rows).singleElement().satisfies(row -> assertThat(row).containsExactly(null, 1.5));
    }

    @Test
    void anUnsupportedParameterTypeIsRefusedByPosition() {
        assertThatThrownBy(() -> store.read(sql -> sql.query("SELECT ? ", row -> 1, "a", Instant.EPOCH)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unsupported SQL parameter type java.time.Instant at position 2");
    }
}
