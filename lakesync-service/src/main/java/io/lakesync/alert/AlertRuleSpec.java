package io.lakesync.alert;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.lakesync.metrics.TableMetric;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.apache.fluss.utils.TimeUtils;

/**
 * An alert rule as users write it (API JSON, CLI flags): plain text fields, optional ones null. {@link #toRule()}
 * checks and converts it; {@link #of(AlertRule)} turns a rule back into this form.
 *
 * <p>Example: {@code {"name": "lag", "metric": "syncLatencyMs", "comparison": ">", "threshold": "5min",
 * "for": "2min", "tables": "fluss.*", "severity": "critical", "channels": ["ops-webhook"]}}.
 *
 * @param name required; letters, digits, '.', '_', '-'
 * @param metric required; a {@link TableMetric} id such as {@code syncLatencyMs}, or its Prometheus name such as
 *     {@code tierLag} (stored and shown as the id)
 * @param comparison required; one of {@code > >= < <=}
 * @param threshold required; a number, or for the {@code ...Ms} metrics also a duration such as {@code 5min}
 * @param window counters only: compare the increase over this duration, for example {@code 10min}
 * @param forDuration how long the condition must hold before firing; default {@code 0s}
 * @param tables which tables: {@code *} (default), a glob such as {@code fluss.orders_*}, or {@code regex:...}
 * @param severity {@code info}, {@code warning} (default) or {@code critical}
 * @param channels notification channel names; default {@code ["log"]}
 * @param enabled default true
 * @param description default empty
 */
public record AlertRuleSpec(
        String name,
        String metric,
        String comparison,
        String threshold,
        String window,
        @JsonProperty("for") String forDuration,
        String tables,
        String severity,
        List<String> channels,
        Boolean enabled,
        String description) {

    /** The channel that every fresh state has, used when a rule names none. */
    public static final String DEFAULT_CHANNEL = "log";

    /** @throws InvalidAlertConfigException naming the first field that is missing or wrong */
    public AlertRule toRule() {
        String subject = "Alert rule '" + name + "'";
        TableMetric parsedMetric = TableMetric.byName(required(subject, "metric", metric).trim()).orElseThrow(() ->
                new InvalidAlertConfigException(subject, "metric",
                        "must be one of " + TableMetric.ids(false) + " (or its Prometheus name, such as tierLag); got '"
                                + metric + "'."));
        Comparison parsedComparison = Comparison.bySymbol(required(subject, "comparison", comparison).trim())
                .orElseThrow(() -> new InvalidAlertConfigException(subject, "comparison",
                        "must be one of >, >=, <, <=; got '" + comparison + "'."));
        return new AlertRule(
                name,
                parsedMetric,
                parsedComparison,
                parseThreshold(subject, parsedMetric, required(subject, "threshold", threshold)),
                window == null ? null : parseDuration(subject, "window", window),
                forDuration == null ? Duration.ZERO : parseDuration(subject, "for", forDuration),
                tables == null ? TableScope.ALL : TableScope.parse(tables, subject),
                severity == null ? Severity.WARNING : parseSeverity(subject, severity),
                channels == null ? List.of(DEFAULT_CHANNEL) : channels,
                enabled == null || enabled,
                description == null ? "" : description);
    }

    /** The written form of {@code rule}; {@code of(rule).toRule()} equals {@code rule}. */
    public static AlertRuleSpec of(AlertRule rule) {
        return new AlertRuleSpec(
                rule.name(),
                rule.metric().id(),
                rule.comparison().symbol(),
                AlertRule.formatNumber(rule.threshold()),
                rule.window() == null ? null : TimeUtils.formatWithHighestUnit(rule.window()),
                TimeUtils.formatWithHighestUnit(rule.forDuration()),
                rule.tables().text(),
                rule.severity().name(),
                rule.channels(),
                rule.enabled(),
                rule.description());
    }

    private static String required(String subject, String field, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidAlertConfigException(subject, field, "is required.");
        }
        return value;
    }

    private static double parseThreshold(String subject, TableMetric metric, String text) {
        try {
            double value = Double.parseDouble(text.trim());
            if (Double.isFinite(value)) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            if (metric.isDuration()) {
                try {
                    return TimeUtils.parseDuration(text).toMillis();
                } catch (IllegalArgumentException notADuration) {
                    // fall through to the message below
                }
            }
        }
        throw new InvalidAlertConfigException(subject, "threshold", "must be a finite number"
                + (metric.isDuration() ? " of milliseconds or a duration such as 5min" : "")
                + " for metric " + metric.id() + "; got '" + text + "'.");
    }

    private static Duration parseDuration(String subject, String field, String text) {
        try {
            return TimeUtils.parseDuration(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidAlertConfigException(subject, field,
                    "must be a duration such as 90s, 10min or 2h; got '" + text + "'.");
        }
    }

    private static Severity parseSeverity(String subject, String text) {
        try {
            return Severity.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidAlertConfigException(subject, "severity",
                    "must be one of info, warning, critical; got '" + text + "'.");
        }
    }
}
