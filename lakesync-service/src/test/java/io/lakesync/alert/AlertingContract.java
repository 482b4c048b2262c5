package io.lakesync.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.metrics.TableMetric;
import io.lakesync.state.StateStore;
import io.lakesync.testing.ManualClock;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Alert rules evaluated against table metrics on a manual clock, with events sent to a real HTTP webhook receiver;
 * one subclass per supported state database runs it for real.
 */
abstract class AlertingContract {

    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final WebhookSettings FAST_RETRIES =
            new WebhookSettings(3, Duration.ofMillis(20), Duration.ofSeconds(5));

    protected final ManualClock clock = new ManualClock(T0);
    private final TableMetricsBoard metrics = new TableMetricsBoard();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private WebhookReceiver receiver;
    private StateStore store;
    private Alerting alerting;

    /** Opens a store on an empty database that {@link #reopen()} can open again. */
    protected abstract StateStore openFresh() throws Exception;

    /** Opens another store on the database of {@link #openFresh()}, as another or a restarted instance would. */
    protected abstract StateStore reopen();

    @BeforeEach
    void open() throws Exception {
        receiver = track(new WebhookReceiver());
        store = track(openFresh());
        alerting = track(Alerting.create(store, FAST_RETRIES, Duration.ofMinutes(1), metrics, clock));
        alerting.channels().save(ChannelConfig.webhook("ops", receiver.url()), "alice");
    }

    @AfterEach
    void close() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    private <T extends AutoCloseable> T track(T resource) {
        opened.add(resource);
        return resource;
    }

    /** Adds a critical rule sending to 'ops' and 'log': "name metric comparison threshold window for", '-' for none. */
    private void addRule(String rule) {
        String[] parts = rule.split(" ");
        alerting.rules().save(new AlertRuleSpec(parts[0], parts[1], parts[2], parts[3],
                parts[4].equals("-") ? null : parts[4], parts[5].equals("-") ? null : parts[5], null, "critical",
                List.of("ops", "log"), true, "").toRule(), "alice");
    }

    private List<AlertEvent> evaluateAfter(Duration elapsed) {
        clock.advance(elapsed);
        return alerting.evaluator().evaluate();
    }

    @Test
    void firesOnceWhenTheConditionHeldForItsDurationAndResolvesOnceWhenItClears() throws Exception {
        addRule("lag syncLatencyMs > 5min - 2min");
        metrics.set("fluss.orders", TableMetric.SYNC_LATENCY_MS, 400_000);

        assertThat(evaluateAfter(Duration.ZERO)).as("pending").isEmpty();
        assertThat(evaluateAfter(Duration.ofMinutes(1))).as("still pending").isEmpty();
        List<AlertEvent> fired = evaluateAfter(Duration.ofMinutes(1));
        assertThat(evaluateAfter(Duration.ofMinutes(1))).as("firing, not again").isEmpty();
        metrics.set("fluss.orders", TableMetric.SYNC_LATENCY_MS, 1_000);
        List<AlertEvent> resolved = evaluateAfter(Duration.ofMinutes(1));
        assertThat(evaluateAfter(Duration.ofMinutes(1))).as("resolved, not again").isEmpty();

        AlertEvent firing = fired.get(0);
        assertThat(fired).singleElement().satisfies(event -> {
            assertThat(event.state()).isEqualTo(AlertEvent.State.FIRING);
            assertThat(event.at()).isEqualTo(T0.plus(Duration.ofMinutes(2)));
            assertThat(event.message()).isEqualTo("syncLatencyMs > 300000 for 2 min on fluss.orders: value 400000");
        });
        assertThat(resolved).singleElement().satisfies(event -> {
            assertThat(event.state()).isEqualTo(AlertEvent.State.RESOLVED);
            assertThat(event.firedAt()).isEqualTo(firing.at());
            assertThat(event.message()).isEqualTo(
                    "syncLatencyMs > 300000 for 2 min no longer holds on fluss.orders: value 1000");
        });

        WebhookReceiver.Received firingPost = receiver.next(WAIT);
        assertThat(firingPost.contentType()).isEqualTo("application/json");
        assertThat(firingPost.eventIdHeader()).isEqualTo(Long.toString(firing.id()));
        assertThat(firingPost.body().get("state").asText()).isEqualTo("FIRING");
        assertThat(firingPost.body().get("rule").asText()).isEqualTo("lag");
        assertThat(firingPost.body().get("table").asText()).isEqualTo("fluss.orders");
        assertThat(firingPost.body().get("severity").asText()).isEqualTo("CRITICAL");
        assertThat(firingPost.body().get("metric").asText()).isEqualTo("syncLatencyMs");
        assertThat(firingPost.body().get("value").asDouble()).isEqualTo(400_000);
        assertThat(firingPost.body().get("at").asText()).isEqualTo("2025-01-01T00:02:00Z");
        WebhookReceiver.Received resolvedPost = receiver.next(WAIT);
        assertThat(resolvedPost.body().get("state").asText()).isEqualTo("RESOLVED");
        assertThat(resolvedPost.body().get("firedAt").asText()).isEqualTo("2025-01-01T00:02:00Z");
        assertThat(alerting.notifier().awaitIdle(WAIT)).isTrue();
        assertThat(receiver.drain()).as("each event exactly once").isEmpty();
        assertThat(alerting.events().history(AlertHistoryQuery.latest(10))).hasSize(2);
        assertThat(alerting.events().deliveries(firing.id()))
                .extracting(DeliveryRecord::channel, record -> record.outcome().delivered(),
                        record -> record.outcome().attempts())
                .containsExactlyInAnyOrder(tuple("ops", true, 1), tuple("log", true, 1));
    }

    @Test
    void aConditionThatClearsBeforeItsDurationNeverFires() {
        addRule("lag syncLatencyMs > 5min - 2min");
        metrics.set("fluss.orders", TableMetric.SYNC_LATENCY_MS, 400_000);
        evaluateAfter(Duration.ZERO);
        evaluateAfter(Duration.ofSeconds(90));
        metrics.set("fluss.orders", TableMetric.SYNC_LATENCY_MS, 0);
        assertThat(evaluateAfter(Duration.ofSeconds(15))).isEmpty();
        metrics.set("fluss.orders", TableMetric.SYNC_LATENCY_MS, 400_000);

        assertThat(evaluateAfter(Duration.ofSeconds(15))).as("pending anew").isEmpty();
        assertThat(evaluateAfter(Duration.ofSeconds(105))).as("2 min after it began holding again").isEmpty();
        assertThat(evaluateAfter(Duration.ofSeconds(15))).hasSize(1);
    }

    @Test
    void withoutADurationAnAlertFiresAtOnceAndCanFireAgainAfterResolving() {
        addRule("backlog pendingRecords >= 1000 - -");
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 1000);

        assertThat(evaluateAfter(Duration.ZERO)).extracting(AlertEvent::state).containsExactly(AlertEvent.State.FIRING);
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 10);
        assertThat(evaluateAfter(Duration.ofMinutes(1))).extracting(AlertEvent::state)
                .containsExactly(AlertEvent.State.RESOLVED);
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 5000);
        assertThat(evaluateAfter(Duration.ofMinutes(1))).extracting(AlertEvent::state)
                .containsExactly(AlertEvent.State.FIRING);
    }

    @Test
    void aWindowedRuleWatchesTheCounterIncrease() {
        addRule("failing failuresTotal > 3 10min -");
        metrics.set("fluss.orders", TableMetric.FAILURES_TOTAL, 0);
        assertThat(evaluateAfter(Duration.ZERO)).isEmpty();
        metrics.set("fluss.orders", TableMetric.FAILURES_TOTAL, 2);
        assertThat(evaluateAfter(Duration.ofMinutes(1))).isEmpty();
        metrics.set("fluss.orders", TableMetric.FAILURES_TOTAL, 5);

        assertThat(evaluateAfter(Duration.ofMinutes(1)))
                .extracting(AlertEvent::state, AlertEvent::message)
                .containsExactly(tuple(
                        AlertEvent.State.FIRING, "failuresTotal > 3 in 10 min on fluss.orders: increase 5"));
        assertThat(evaluateAfter(Duration.ofMinutes(5))).as("minute 7: the failures are in the window").isEmpty();
        assertThat(evaluateAfter(Duration.ofMinutes(6)))
                .as("minute 13: no failure since minute 2")
                .extracting(AlertEvent::state, AlertEvent::value)
                .containsExactly(tuple(AlertEvent.State.RESOLVED, 0.0));
    }

    @Test
    void aRuleWatchesOnlyTheTablesInItsScope() {
        alerting.rules().save(new AlertRuleSpec("orders", "pendingRecords", ">", "0", null, null, "fluss.orders_*",
                null, null, null, null).toRule(), "alice");
        metrics.set("fluss.orders_eu", TableMetric.PENDING_RECORDS, 1);
        metrics.set("fluss.users", TableMetric.PENDING_RECORDS, 1);

        assertThat(evaluateAfter(Duration.ZERO)).extracting(AlertEvent::table).containsExactly("fluss.orders_eu");
    }

    @Test
    void anAlertResolvesWhenItsTableOrMetricIsNoLongerReported() {
        addRule("backlog pendingRecords > 0 - -");
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 1);
        metrics.set("fluss.users", TableMetric.PENDING_RECORDS, 1);
        assertThat(evaluateAfter(Duration.ZERO)).hasSize(2);

        metrics.drop("fluss.orders").unset("fluss.users", TableMetric.PENDING_RECORDS);

        assertThat(evaluateAfter(Duration.ofMinutes(1)))
                .extracting(AlertEvent::table, AlertEvent::state, AlertEvent::value, AlertEvent::message)
                .containsExactlyInAnyOrder(
                        tuple("fluss.orders", AlertEvent.State.RESOLVED, null,
                                "table fluss.orders is no longer reported"),
                        tuple("fluss.users", AlertEvent.State.RESOLVED, null,
                                "pendingRecords is no longer reported for fluss.users"));
    }

    @Test
    void disablingDeletingOrNarrowingARuleResolvesItsAlerts() {
        addRule("disabled pendingRecords > 0 - -");
        addRule("deleted pendingRecords > 0 - -");
        addRule("narrowed pendingRecords > 0 - -");
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 1);
        assertThat(evaluateAfter(Duration.ZERO)).hasSize(3);

        AlertRule disabled = alerting.rules().get("disabled").orElseThrow();
        alerting.rules().save(new AlertRule(disabled.name(), disabled.metric(), disabled.comparison(),
                disabled.threshold(), null, disabled.forDuration(), disabled.tables(), disabled.severity(),
                disabled.channels(), false, ""), "bob");
        alerting.rules().delete("deleted", "bob");
        AlertRule narrowed = alerting.rules().get("narrowed").orElseThrow();
        alerting.rules().save(new AlertRule(narrowed.name(), narrowed.metric(), narrowed.comparison(),
                narrowed.threshold(), null, narrowed.forDuration(), TableScope.parse("fluss.users", "test"),
                narrowed.severity(), narrowed.channels(), true, ""), "bob");

        assertThat(evaluateAfter(Duration.ofMinutes(1)))
                .extracting(AlertEvent::rule, AlertEvent::state, AlertEvent::message)
                .containsExactlyInAnyOrder(
                        tuple("disabled", AlertEvent.State.RESOLVED,
                                "rule 'disabled' was deleted or disabled while firing on fluss.orders"),
                        tuple("deleted", AlertEvent.State.RESOLVED,
                                "rule 'deleted' was deleted or disabled while firing on fluss.orders"),
                        tuple("narrowed", AlertEvent.State.RESOLVED,
                                "table fluss.orders is no longer in the rule's scope fluss.users"));
    }

    @Test
    void aRestartedInstanceTakesOverFiringAlertsWithoutFiringThemAgain() throws Exception {
        addRule("backlog pendingRecords > 0 - -");
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 1);
        assertThat(evaluateAfter(Duration.ZERO)).hasSize(1);
        alerting.close();

        Alerting restarted =
                track(Alerting.create(track(reopen()), FAST_RETRIES, Duration.ofMinutes(1), metrics, clock));
        assertThat(restarted.evaluator().evaluate()).as("still firing: no new event").isEmpty();
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 0);

        assertThat(restarted.evaluator().evaluate()).extracting(AlertEvent::state)
                .containsExactly(AlertEvent.State.RESOLVED);
    }

    @Test
    void twoInstancesOnOneStateFireAndResolveEachAlertOnce() throws Exception {
        Alerting other = track(Alerting.create(track(reopen()), FAST_RETRIES, Duration.ofMinutes(1), metrics, clock));
        addRule("lag syncLatencyMs > 5min - 1min");
        metrics.set("fluss.orders", TableMetric.SYNC_LATENCY_MS, 400_000);
        List<AlertEvent> all = new ArrayList<>();
        for (int minute = 0; minute < 3; minute++) {
            all.addAll(evaluateAfter(Duration.ofMinutes(1)));
            all.addAll(other.evaluator().evaluate());
        }
        metrics.set("fluss.orders", TableMetric.SYNC_LATENCY_MS, 0);
        for (int minute = 0; minute < 2; minute++) {
            all.addAll(other.evaluator().evaluate());
            all.addAll(evaluateAfter(Duration.ofMinutes(1)));
        }

        assertThat(all).extracting(AlertEvent::state)
                .containsExactly(AlertEvent.State.FIRING, AlertEvent.State.RESOLVED);
        assertThat(alerting.events().history(AlertHistoryQuery.latest(10))).hasSize(2);
    }

    @Test
    void aWebhookThatFailsIsRetriedUntilItAccepts() throws Exception {
        addRule("backlog pendingRecords > 0 - -");
        receiver.failNext(2, 500);
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 1);

        long id = evaluateAfter(Duration.ZERO).get(0).id();

        assertThat(List.of(receiver.next(WAIT), receiver.next(WAIT), receiver.next(WAIT)))
                .extracting(WebhookReceiver.Received::eventIdHeader, WebhookReceiver.Received::answeredWith)
                .containsExactly(tuple("" + id, 500), tuple("" + id, 500), tuple("" + id, 204));
        assertThat(alerting.notifier().awaitIdle(WAIT)).isTrue();
        assertThat(deliveryTo("ops", id)).isEqualTo(new DeliveryOutcome(true, 3, "HTTP 204"));
    }

    @Test
    void aWebhookThatKeepsFailingIsGivenUpAfterTheLastAttempt() throws Exception {
        addRule("backlog pendingRecords > 0 - -");
        receiver.failNext(100, 503);
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 1);

        long id = evaluateAfter(Duration.ZERO).get(0).id();

        assertThat(alerting.notifier().awaitIdle(WAIT)).isTrue();
        assertThat(deliveryTo("ops", id)).isEqualTo(new DeliveryOutcome(false, 3, "HTTP 503 after 3 attempt(s)"));
        assertThat(receiver.drain()).hasSize(3);
    }

    @Test
    void aWebhookThatRefusesTheRequestIsNotRetried() throws Exception {
        addRule("backlog pendingRecords > 0 - -");
        receiver.failNext(1, 400);
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 1);

        long id = evaluateAfter(Duration.ZERO).get(0).id();

        assertThat(alerting.notifier().awaitIdle(WAIT)).isTrue();
        assertThat(deliveryTo("ops", id)).isEqualTo(new DeliveryOutcome(false, 1, "HTTP 400 after 1 attempt(s)"));
    }

    @Test
    void anUnreachableWebhookIsRetriedThenGivenUp() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        URI unreachable = URI.create("http://127.0.0.1:" + closedPort + "/");
        alerting.channels().save(ChannelConfig.webhook("ops", unreachable), "bob");
        addRule("backlog pendingRecords > 0 - -");
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 1);

        long id = evaluateAfter(Duration.ZERO).get(0).id();

        assertThat(alerting.notifier().awaitIdle(WAIT)).isTrue();
        DeliveryOutcome outcome = deliveryTo("ops", id);
        assertThat(outcome.delivered()).isFalse();
        assertThat(outcome.attempts()).isEqualTo(3);
        assertThat(outcome.detail()).startsWith("ConnectException").endsWith("after 3 attempt(s)");
    }

    @Test
    void aWebhookThatDoesNotAnswerInTimeIsRetriedThenGivenUp() throws Exception {
        Alerting impatient = track(Alerting.create(store, new WebhookSettings(2, Duration.ofMillis(10),
                Duration.ofMillis(300)), Duration.ofMinutes(1), metrics, clock));
        addRule("backlog pendingRecords > 0 - -");
        receiver.holdAnswers();
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 1);

        long id = impatient.evaluator().evaluate().get(0).id();

        assertThat(impatient.notifier().awaitIdle(WAIT)).isTrue();
        assertThat(deliveryTo("ops", id))
                .isEqualTo(new DeliveryOutcome(false, 2, "HttpTimeoutException: request timed out after 2 attempt(s)"));
    }

    @Test
    void theResolvedEventWaitsForItsFiringEventOnTheSameChannel() throws Exception {
        addRule("backlog pendingRecords > 0 - -");
        receiver.failNext(1, 500);
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 1);
        evaluateAfter(Duration.ZERO);
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 0);
        evaluateAfter(Duration.ofSeconds(1));

        assertThat(List.of(receiver.next(WAIT), receiver.next(WAIT), receiver.next(WAIT)))
                .extracting(received -> received.body().get("state").asText(), WebhookReceiver.Received::answeredWith)
                .containsExactly(tuple("FIRING", 500), tuple("FIRING", 204), tuple("RESOLVED", 204));
    }

    @Test
    void anEventForAChannelThatIsGoneIsRecordedAsUndelivered() throws Exception {
        AlertEvent event = alerting.events().fire(new AlertEvent(0, "old", "fluss.orders", AlertEvent.State.FIRING,
                Severity.INFO, "pendingRecords", "pendingRecords > 0", 1.0, T0, T0, List.of("gone"), "x"))
                .orElseThrow();

        alerting.notifier().send(event);

        assertThat(alerting.notifier().awaitIdle(WAIT)).isTrue();
        assertThat(deliveryTo("gone", event.id())).isEqualTo(
                new DeliveryOutcome(false, 0, "channel 'gone' no longer exists"));
    }

    @Test
    void startedAlertingEvaluatesPeriodicallyAndOutlivesAFailedEvaluation() throws Exception {
        addRule("backlog pendingRecords > 0 - -");
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 1);
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch thirdCall = new CountDownLatch(1);
        TableMetricsSource failingOnce = () -> {
            int call = calls.incrementAndGet();
            if (call == 3) {
                thirdCall.countDown();
            }
            if (call == 1) {
                throw new IllegalStateException("engine not ready");
            }
            return metrics.snapshot();
        };
        LakeSyncConfig config = LakeSyncConfig.fromMap(Map.of("alert.evaluation-interval", "20 ms"), "test");
        Alerting scheduled = track(Alerting.create(store, config, failingOnce, clock));

        scheduled.start(() -> true);

        assertThat(thirdCall.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(scheduled.events().active()).extracting(AlertEvent::rule).containsExactly("backlog");
        assertThatThrownBy(() -> scheduled.start(() -> true)).isInstanceOf(IllegalStateException.class)
                .hasMessage("Alerting is already started");
    }

    @Test
    void everyEventStaysInTheHistoryWithItsValues() {
        addRule("backlog pendingRecords > 0 - -");
        metrics.set("fluss.orders", TableMetric.PENDING_RECORDS, 7);
        evaluateAfter(Duration.ZERO);

        assertThat(alerting.events().history(AlertHistoryQuery.latest(1))).singleElement().satisfies(event -> {
            assertThat(event.value()).isEqualTo(7.0);
            assertThat(event.channels()).containsExactly("log", "ops");
            assertThat(event.condition()).isEqualTo("pendingRecords > 0");
            assertThat(event.severity()).isEqualTo(Severity.CRITICAL);
        });
    }

    private DeliveryOutcome deliveryTo(String channel, long eventId) {
        return alerting.events().deliveries(eventId).stream()
                .filter(record -> record.channel().equals(channel))
                .map(DeliveryRecord::outcome)
                .findFirst()
                .orElseThrow(() -> new AssertionError("No delivery of event " + eventId + " to " + channel));
    }
}
