package io.lakesync.alert;

import io.lakesync.metrics.TableMetric;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.fluss.utils.TimeUtils;

/**
 * A validated alert rule: it fires for a table when {@code metric comparison threshold} has held there for
 * {@code forDuration}, and resolves when it stops holding. Build one from user input with {@link AlertRuleSpec}.
 *
 * @param name unique name
 * @param metric the table metric watched
 * @param comparison how the value is compared with the threshold
 * @param threshold the threshold; milliseconds for duration metrics
 * @param window for counters only, or null: compare the counter's increase over this window instead of its
 *     value, for example {@code failuresTotal > 3 in 10 min}
 * @param forDuration how long the condition must hold before the alert fires; zero fires at once
 * @param tables which tables the rule watches
 * @param severity how urgent it is
 * @param channels names of the notification channels that hear about it, at least one; kept sorted
 * @param enabled whether it is evaluated at all
 * @param description free text for people, possibly empty
 */
public record AlertRule(
        String name,
        TableMetric metric,
        Comparison comparison,
        double threshold,
        Duration window,
        Duration forDuration,
        TableScope tables,
        Severity severity,
        List<String> channels,
        boolean enabled,
        String description) {

    /** Longest accepted window and for-duration; longer ones would keep too much metric history. */
    public static final Duration MAX_DURATION = Duration.ofDays(1);

    public static final int MAX_DESCRIPTION_LENGTH = 1024;

    /** @throws InvalidAlertConfigException naming the first field that is wrong */
    public AlertRule {
        String subject = "Alert rule '" + name + "'";
        Names.check("Alert rule", "name", name);
        require(subject, "metric", metric);
        require(subject, "comparison", comparison);
        if (!Double.isFinite(threshold)) {
            throw new InvalidAlertConfigException(
                    subject, "threshold", "must be a finite number; got " + threshold + ".");
        }
        if (window != null) {
            if (!metric.isCounter()) {
                throw new InvalidAlertConfigException(subject, "window",
                        "applies to counters only (" + TableMetric.ids(true) + "); " + metric.id()
                                + " is a gauge, so leave 'window' out.");
            }
            checkDuration(subject, "window", window, false);
        }
        require(subject, "for", forDuration);
        checkDuration(subject, "for", forDuration, true);
        require(subject, "tables", tables);
        require(subject, "severity", severity);
        require(subject, "channels", channels);
        if (channels.isEmpty()) {
            throw new InvalidAlertConfigException(
                    subject, "channels", "must name at least one channel, for example 'log'.");
        }
        Set<String> seen = new HashSet<>();
        for (String channel : channels) {
            Names.check(subject, "channels", channel);
            if (!seen.add(channel)) {
                throw new InvalidAlertConfigException(subject, "channels", "names '" + channel + "' twice.");
            }
        }
        channels = List.copyOf(new TreeSet<>(channels));
        require(subject, "description", description);
        if (description.length() > MAX_DESCRIPTION_LENGTH) {
            throw new InvalidAlertConfigException(subject, "description",
                    "must be at most " + MAX_DESCRIPTION_LENGTH + " characters; got " + description.length() + ".");
        }
    }

    /** The condition as people write it, for example {@code failuresTotal > 3 in 10 min for 1 min}. */
    public String condition() {
        StringBuilder text = new StringBuilder(metric.id())
                .append(' ').append(comparison.symbol())
                .append(' ').append(formatNumber(threshold));
        if (window != null) {
            text.append(" in ").append(TimeUtils.formatWithHighestUnit(window));
        }
        if (!forDuration.isZero()) {
            text.append(" for ").append(TimeUtils.formatWithHighestUnit(forDuration));
        }
        return text.toString();
    }

    /** One line describing the whole rule, for the audit log. */
    public String summary() {
        return condition() + " on tables " + tables + ", " + severity + ", to " + String.join(", ", channels)
                + (enabled ? "" : ", disabled");
    }

    /** A number without a needless {@code .0}. */
    static String formatNumber(double value) {
        boolean whole = value == Math.rint(value) && Math.abs(value) < 1e15;
        return whole ? Long.toString((long) value) : Double.toString(value);
    }

    private static void require(String subject, String field, Object value) {
        if (value == null) {
            throw new InvalidAlertConfigException(subject, field, "is required.");
        }
    }

    private static void checkDuration(String subject, String field, Duration duration, boolean zeroAllowed) {
        if (duration.isNegative() || (!zeroAllowed && duration.isZero()) || duration.compareTo(MAX_DURATION) > 0) {
            String range = zeroAllowed ? "between 0s and 1d" : "more than 0s and at most 1d";
            throw new InvalidAlertConfigException(subject, field, "must be " + range + "; got " + duration + ".");
        }
    }
}
