package io.lakesync.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.metrics.TableMetric;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AlertRuleSpecTest {

    private static AlertRuleSpec spec(
            String metric, String comparison, String threshold, String window, String forText) {
        return new AlertRuleSpec("lag", metric, comparison, threshold, window, forText, null, null, null, null, null);
    }

    @Test
    void fillsDefaultsForOptionalFields() {
        AlertRule rule = spec("syncLatencyMs", ">", "300000", null, null).toRule();

        assertThat(rule.forDuration()).isZero();
        assertThat(rule.window()).isNull();
        assertThat(rule.tables()).isEqualTo(TableScope.ALL);
        assertThat(rule.severity()).isEqualTo(Severity.WARNING);
        assertThat(rule.channels()).containsExactly("log");
        assertThat(rule.enabled()).isTrue();
        assertThat(rule.description()).isEmpty();
        assertThat(rule.condition()).isEqualTo("syncLatencyMs > 300000");
    }

    @Test
    void readsEveryFieldAndWritesItBack() {
        AlertRuleSpec spec = new AlertRuleSpec("too-many-failures", "failuresTotal", ">=", "3", "10min", "1min",
                "regex:fluss\\.(orders|payments)", "critical", List.of("pager", "log"), false, "page the on-call");

        AlertRule rule = spec.toRule();

        assertThat(rule).isEqualTo(new AlertRule("too-many-failures", TableMetric.FAILURES_TOTAL,
                Comparison.GREATER_OR_EQUAL, 3, Duration.ofMinutes(10), Duration.ofMinutes(1),
                TableScope.parse("regex:fluss\\.(orders|payments)", "test"), Severity.CRITICAL,
                List.of("log", "pager"), false, "page the on-call"));
        assertThat(rule.condition()).isEqualTo("failuresTotal >= 3 in 10 min for 1 min");
        assertThat(AlertRuleSpec.of(rule).toRule()).isEqualTo(rule);
    }

    @Test
    void durationMetricsTakeDurationThresholds() {
        assertThat(spec("syncLatencyMs", ">", "5min", null, "2min").toRule().threshold()).isEqualTo(300_000);
        assertThat(spec("checkpointAgeMs", "<", "1.5", null, null).toRule().threshold()).isEqualTo(1.5);
    }

    @Test
    void aMetricMayBeNamedByItsPrometheusNameAndIsStoredByItsId() {
        for (String name : new String[] {"tierLag", "lakesync_table_tierLag", " syncLatencyMs "}) {
            AlertRule rule = spec(name, ">", "5min", null, null).toRule();
            assertThat(rule.metric()).isEqualTo(TableMetric.SYNC_LATENCY_MS);
            assertThat(AlertRuleSpec.of(rule).metric()).isEqualTo("syncLatencyMs");
        }
    }

    @Test
    void otherMetricsRefuseDurationThresholds() {
        assertThatThrownBy(() -> spec("pendingRecords", ">", "5min", null, null).toRule())
                .isInstanceOf(InvalidAlertConfigException.class)
                .hasMessage("Alert rule 'lag': 'threshold' must be a finite number for metric pendingRecords; "
                        + "got '5min'.");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "metric missing        | ''              | >   | 1     |       |      | metric     | is required.",
        "metric unknown        | latency         | >   | 1     |       |      | metric     | must be one of syncLatencyMs, tieredTimestamp, checkpointAgeMs, pendingRecords, lakeSnapshotId, freshnessMs, tierDurationMs, roundsTotal, failuresTotal, rowsTieredTotal, bytesTieredTotal, filesWrittenTotal, observationAgeMs, stale, stateUnknown, quotaHeldBack, lakeDataFiles, lakeAverageFileBytes, lakeSmallFileRatio, lakeSnapshotsKept, bytesReclaimedTotal, lastCompactionTimestamp (or its Prometheus name, such as tierLag); got 'latency'.",
        "comparison missing    | pendingRecords  | ''  | 1     |       |      | comparison | is required.",
        "comparison unknown    | pendingRecords  | ==  | 1     |       |      | comparison | must be one of >, >=, <, <=; got '=='.",
        "threshold missing     | pendingRecords  | >   | ''    |       |      | threshold  | is required.",
        "threshold not finite  | pendingRecords  | >   | NaN   |       |      | threshold  | must be a finite number for metric pendingRecords; got 'NaN'.",
        "threshold no duration | syncLatencyMs   | >   | soon  |       |      | threshold  | must be a finite number of milliseconds or a duration such as 5min for metric syncLatencyMs; got 'soon'.",
        "window on a gauge     | pendingRecords  | >   | 1     | 10min |      | window     | applies to counters only (roundsTotal, failuresTotal, rowsTieredTotal, bytesTieredTotal, filesWrittenTotal, bytesReclaimedTotal); pendingRecords is a gauge, so leave 'window' out.",
        "window unparsable     | failuresTotal   | >   | 1     | ten   |      | window     | must be a duration such as 90s, 10min or 2h; got 'ten'.",
        "window zero           | failuresTotal   | >   | 1     | 0s    |      | window     | must be more than 0s and at most 1d; got PT0S.",
        "window too long       | failuresTotal   | >   | 1     | 2d    |      | window     | must be more than 0s and at most 1d; got PT48H.",
        "for unparsable        | pendingRecords  | >   | 1     |       | -5s  | for        | must be a duration such as 90s, 10min or 2h; got '-5s'.",
        "for too long          | pendingRecords  | >   | 1     |       | 25h  | for        | must be between 0s and 1d; got PT25H.",
    })
    void refusesABadFieldByName(String title, String metric, String comparison, String threshold, String window,
            String forText, String field, String problem) {
        assertThatThrownBy(() -> spec(metric, comparison, threshold, window, forText).toRule())
                .isInstanceOfSatisfying(InvalidAlertConfigException.class, e -> assertThat(e.field()).isEqualTo(field))
                .hasMessage("Alert rule 'lag': '" + field + "' " + problem);
    }

    @Test
    void refusesABadName() {
        assertThatThrownBy(() -> new AlertRuleSpec("no spaces", "pendingRecords", ">", "1", null, null, null, null,
                null, null, null).toRule())
                .isInstanceOfSatisfying(InvalidAlertConfigException.class, e -> assertThat(e.field()).isEqualTo("name"))
                .hasMessage("Alert rule: 'name' must be 1 to 64 letters, digits, '.', '_' or '-', starting with a "
                        + "letter or digit; got 'no spaces'.");
    }

    @Test
    void refusesABadSeverity() {
        assertThatThrownBy(() -> new AlertRuleSpec("lag", "pendingRecords", ">", "1", null, null, null, "urgent",
                null, null, null).toRule())
                .hasMessage("Alert rule 'lag': 'severity' must be one of info, warning, critical; got 'urgent'.");
    }

    @Test
    void refusesBadChannels() {
        assertThatThrownBy(() -> withChannels(List.of()))
                .hasMessage("Alert rule 'lag': 'channels' must name at least one channel, for example 'log'.");
        assertThatThrownBy(() -> withChannels(List.of("ops", "ops")))
                .hasMessage("Alert rule 'lag': 'channels' names 'ops' twice.");
        assertThatThrownBy(() -> withChannels(List.of("ops/2")))
                .hasMessageStartingWith("Alert rule 'lag': 'channels' must be 1 to 64 letters");
        assertThatThrownBy(() -> withChannels(Collections.singletonList(null)))
                .hasMessageEndingWith("got nothing.");
    }

    @Test
    void refusesBadTablesAndDescription() {
        assertThatThrownBy(() -> new AlertRuleSpec("lag", "pendingRecords", ">", "1", null, null, " ", null, null,
                null, null).toRule())
                .hasMessage("Alert rule 'lag': 'tables' must not be empty; use * for all tables.");
        assertThatThrownBy(() -> new AlertRuleSpec("lag", "pendingRecords", ">", "1", null, null, null, null, null,
                null, "x".repeat(1025)).toRule())
                .hasMessage("Alert rule 'lag': 'description' must be at most 1024 characters; got 1025.");
    }

    @Test
    void aRuleBuiltInCodeIsCheckedToo() {
        assertThatThrownBy(() -> new AlertRule("lag", TableMetric.PENDING_RECORDS, null, 1, null, Duration.ZERO,
                TableScope.ALL, Severity.INFO, List.of("log"), true, ""))
                .hasMessage("Alert rule 'lag': 'comparison' is required.");
        assertThatThrownBy(() -> new AlertRule("lag", TableMetric.PENDING_RECORDS, Comparison.LESS,
                Double.POSITIVE_INFINITY, null, Duration.ZERO, TableScope.ALL, Severity.INFO, List.of("log"), true, ""))
                .hasMessage("Alert rule 'lag': 'threshold' must be a finite number; got Infinity.");
    }

    private static AlertRule withChannels(List<String> channels) {
        return new AlertRuleSpec("lag", "pendingRecords", ">", "1", null, null, null, null, channels, null, null)
                .toRule();
    }
}
