package io.lakesync.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.lakesync.state.AuditEntry;
import io.lakesync.state.StateStore;
import io.lakesync.testing.ManualClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How alert rules, channels and events are stored; one subclass per supported database runs it for real. */
abstract class AlertStoreContract {

    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    /** Created by the schema migration V2_16. */
    private static final String BUILT_IN_RULE = "table-status-unknown";

    protected final ManualClock clock = new ManualClock(T0);
    private StateStore store;
    private AlertRuleRepository rules;
    private ChannelRepository channels;
    private AlertEventRepository events;

    /** Opens a store on an empty database. */
    protected abstract StateStore openFresh() throws Exception;

    @BeforeEach
    void open() throws Exception {
        store = openFresh();
        rules = new JdbcAlertRuleRepository(store);
        channels = new JdbcChannelRepository(store);
        events = new JdbcAlertEventRepository(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static AlertRule rule(String name, String threshold, List<String> channelNames) {
        return new AlertRuleSpec(name, "failuresTotal", ">", threshold, "10min", "1min", "regex:fluss\\..*",
                "critical", channelNames, true, "described").toRule();
    }

    private static AlertEvent firing(String rule, String table, Instant at) {
        return new AlertEvent(0, rule, table, AlertEvent.State.FIRING, Severity.CRITICAL, "syncLatencyMs",
                "syncLatencyMs > 300000", 400_000.0, at, at, List.of("log", "ops"), "fired");
    }

    private List<Object> audit() {
        return store.auditLog().recent(100).stream()
                .map(entry -> (Object) tuple(entry.actor(), entry.action(), entry.target()))
                .toList();
    }

    /** The rules users made: all but the built-in one a fresh state has. */
    private List<AlertRule> userRules() {
        return rules.list().stream().filter(rule -> !rule.name().equals(BUILT_IN_RULE)).toList();
    }

    @Test
    void aFreshStateHasTheLogChannelAndTheBuiltInRuleOnUnknownTables() {
        assertThat(channels.list()).containsExactly(ChannelConfig.log("log"));
        assertThat(rules.list()).singleElement().satisfies(rule -> {
            assertThat(AlertRuleSpec.of(rule)).isEqualTo(new AlertRuleSpec(BUILT_IN_RULE, "stateUnknown", ">", "0",
                    null, "1 min", "*", "WARNING", List.of("log"), true, rule.description()));
            assertThat(rule.description()).startsWith("Built in: lakesync cannot observe the table");
        });
        assertThat(events.active()).isEmpty();
    }

    @Test
    void theBuiltInRuleIsEditedAndDeletedLikeAnyOther() {
        AlertRule builtIn = rules.get(BUILT_IN_RULE).orElseThrow();
        AlertRule quieter = new AlertRule(builtIn.name(), builtIn.metric(), builtIn.comparison(), builtIn.threshold(),
                null, Duration.ofMinutes(10), builtIn.tables(), Severity.CRITICAL, builtIn.channels(), true,
                builtIn.description());
        assertThat(rules.save(quieter, "alice")).isFalse();
        assertThat(rules.get(BUILT_IN_RULE)).contains(quieter);
        assertThat(rules.delete(BUILT_IN_RULE, "alice")).isTrue();
        assertThat(rules.list()).isEmpty();
    }

    @Test
    void rulesAreCreatedReplacedAndDeletedWithAnAuditTrail() {
        channels.save(ChannelConfig.webhook("ops", URI.create("http://127.0.0.1:1/hook")), "alice");
        AlertRule created = rule("failures", "3", List.of("ops", "log"));

        assertThat(rules.save(created, "alice")).isTrue();
        assertThat(rules.get("failures")).contains(created);

        AlertRule replaced = rule("failures", "5", List.of("log"));
        assertThat(rules.save(replaced, "bob")).isFalse();
        assertThat(rules.save(rule("a-first", "1", List.of("log")), "bob")).isTrue();
        assertThat(userRules()).containsExactly(rule("a-first", "1", List.of("log")), replaced);

        assertThat(rules.delete("failures", "carol")).isTrue();
        assertThat(rules.delete("failures", "carol")).isFalse();
        assertThat(rules.get("failures")).isEmpty();
        assertThat(audit()).containsExactly(
                tuple("carol", "alert-rule.delete", "failures"),
                tuple("bob", "alert-rule.create", "a-first"),
                tuple("bob", "alert-rule.update", "failures"),
                tuple("alice", "alert-rule.create", "failures"),
                tuple("alice", "channel.create", "ops"));
        assertThat(store.auditLog().recent(100)).extracting(AuditEntry::detail)
                .contains("failuresTotal > 5 in 10 min for 1 min on tables regex:fluss\\..*, CRITICAL, to log");
    }

    @Test
    void aRuleNamingAnUnknownChannelIsRefusedAndNotStored() {
        assertThatThrownBy(() -> rules.save(rule("failures", "3", List.of("log", "pager", "sms")), "alice"))
                .isInstanceOfSatisfying(InvalidAlertConfigException.class,
                        e -> assertThat(e.field()).isEqualTo("channels"))
                .hasMessage("Alert rule 'failures': 'channels' names unknown channel(s) pager, sms; existing "
                        + "channels: log.");

        assertThat(userRules()).isEmpty();
        assertThat(store.auditLog().recent(10)).isEmpty();
    }

    @Test
    void channelsAreCreatedReplacedAndDeleted() {
        ChannelConfig hook = ChannelConfig.webhook("ops", URI.create("http://127.0.0.1:1/hook"));
        assertThat(channels.save(hook, "alice")).isTrue();
        ChannelConfig moved = ChannelConfig.webhook("ops", URI.create("https://hooks.internal/v2"));
        assertThat(channels.save(moved, "alice")).isFalse();

        assertThat(channels.get("ops")).contains(moved);
        assertThat(channels.list()).containsExactly(ChannelConfig.log("log"), moved);
        assertThat(channels.delete("ops", "bob")).isTrue();
        assertThat(channels.delete("ops", "bob")).isFalse();
        assertThat(channels.get("ops")).isEmpty();
        assertThat(audit()).containsExactly(
                tuple("bob", "channel.delete", "ops"),
                tuple("alice", "channel.update", "ops"),
                tuple("alice", "channel.create", "ops"));
    }

    @Test
    void aChannelInUseCannotBeDeleted() {
        rules.save(rule("b-rule", "3", List.of("log")), "alice");
        rules.save(rule("a-rule", "3", List.of("log")), "alice");

        assertThatThrownBy(() -> channels.delete("log", "bob"))
                .isInstanceOfSatisfying(ChannelInUseException.class,
                        e -> assertThat(e.rules()).containsExactly("a-rule", "b-rule", BUILT_IN_RULE))
                .hasMessage("Channel 'log' is still used by alert rule(s) a-rule, b-rule, " + BUILT_IN_RULE
                        + "; remove it from their 'channels' or delete them first.");
        assertThat(channels.get("log")).isPresent();
    }

    @Test
    void anAlertFiresOnceUntilItResolves() {
        AlertEvent fired = events.fire(firing("lag", "fluss.orders", T0)).orElseThrow();

        assertThat(fired.id()).isPositive();
        assertThat(events.fire(firing("lag", "fluss.orders", T0.plusSeconds(60)))).isEmpty();
        assertThat(events.active()).containsExactly(fired);

        Instant later = T0.plusSeconds(300);
        AlertEvent resolved = events.resolve("lag", "fluss.orders", 1_000.0, later, "cleared").orElseThrow();

        assertThat(resolved).isEqualTo(new AlertEvent(resolved.id(), "lag", "fluss.orders", AlertEvent.State.RESOLVED,
                Severity.CRITICAL, "syncLatencyMs", "syncLatencyMs > 300000", 1_000.0, later, T0,
                List.of("log", "ops"), "cleared"));
        assertThat(resolved.id()).isGreaterThan(fired.id());
        assertThat(events.resolve("lag", "fluss.orders", 1_000.0, later, "cleared")).isEmpty();
        assertThat(events.active()).isEmpty();
        assertThat(events.fire(firing("lag", "fluss.orders", later))).isPresent();
    }

    @Test
    void resolvingAnAlertThatIsNotFiringDoesNothing() {
        assertThat(events.resolve("lag", "fluss.orders", null, T0, "gone")).isEmpty();
        assertThat(events.history(AlertHistoryQuery.latest(10))).isEmpty();
    }

    @Test
    void onlyFiringEventsCanFire() {
        AlertEvent resolved = new AlertEvent(0, "lag", "t", AlertEvent.State.RESOLVED, Severity.INFO, "m", "c",
                null, T0, T0, List.of(), "x");

        assertThatThrownBy(() -> events.fire(resolved))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fire() takes a FIRING event, got RESOLVED");
    }

    @Test
    void historyIsNewestFirstAndFilters() {
        events.fire(firing("lag", "fluss.orders", T0));
        events.fire(firing("lag", "fluss.users", T0.plusSeconds(10)));
        events.fire(firing("stuck", "fluss.orders", T0.plusSeconds(20)));
        events.resolve("lag", "fluss.orders", null, T0.plusSeconds(30), "table dropped");

        assertThat(events.history(AlertHistoryQuery.latest(10)))
                .extracting(AlertEvent::rule, AlertEvent::table, AlertEvent::state, AlertEvent::value)
                .containsExactly(
                        tuple("lag", "fluss.orders", AlertEvent.State.RESOLVED, null),
                        tuple("stuck", "fluss.orders", AlertEvent.State.FIRING, 400_000.0),
                        tuple("lag", "fluss.users", AlertEvent.State.FIRING, 400_000.0),
                        tuple("lag", "fluss.orders", AlertEvent.State.FIRING, 400_000.0));
        assertThat(events.history(new AlertHistoryQuery("lag", null, null, 10))).hasSize(3);
        assertThat(events.history(new AlertHistoryQuery(null, "fluss.orders", null, 10))).hasSize(3);
        assertThat(events.history(new AlertHistoryQuery("lag", "fluss.orders", T0.plusSeconds(30), 10)))
                .extracting(AlertEvent::message).containsExactly("table dropped");
        assertThat(events.history(AlertHistoryQuery.latest(1))).extracting(AlertEvent::state)
                .containsExactly(AlertEvent.State.RESOLVED);
        assertThatThrownBy(() -> AlertHistoryQuery.latest(0))
                .hasMessage("The alert history limit must be positive, got 0.");
    }

    @Test
    void deliveryOutcomesAreKeptPerEvent() {
        long id = events.fire(firing("lag", "fluss.orders", T0)).orElseThrow().id();
        events.recordDelivery(id, "ops", new DeliveryOutcome(false, 5, "HTTP 503 after 5 attempt(s)"));
        clock.advance(Duration.ofSeconds(1));
        events.recordDelivery(id, "log", new DeliveryOutcome(true, 1, "logged"));

        assertThat(events.deliveries(id)).containsExactly(
                new DeliveryRecord(id, "ops", new DeliveryOutcome(false, 5, "HTTP 503 after 5 attempt(s)"), T0),
                new DeliveryRecord(id, "log", new DeliveryOutcome(true, 1, "logged"), T0.plusSeconds(1)));
        assertThat(events.deliveries(id + 1)).isEmpty();
    }
}
