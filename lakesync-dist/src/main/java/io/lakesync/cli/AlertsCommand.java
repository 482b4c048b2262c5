package io.lakesync.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakesync.metrics.TableMetric;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lakesync alerts ...}: alert rules, notification channels and alert history. */
@Command(name = "alerts", mixinStandardHelpOptions = true,
        description = "Manages alert rules and notification channels, and shows alert history.",
        subcommands = {AlertsCommand.Rules.class, AlertsCommand.SetRule.class, AlertsCommand.DeleteRule.class,
            AlertsCommand.Channels.class, AlertsCommand.SetChannel.class, AlertsCommand.DeleteChannel.class,
            AlertsCommand.Events.class, AlertsCommand.Metrics.class})
final class AlertsCommand {

    /** Every metric id a rule can watch, from the one catalogue the server evaluates. */
    static final class MetricIds implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(TableMetric.values()).map(TableMetric::id).iterator();
        }
    }

    @Command(name = "rules", mixinStandardHelpOptions = true, description = "Lists the alert rules.")
    static final class Rules extends ClientCommand {
        @Override
        void run(PrintWriter out) throws Exception {
            TextTable table = new TextTable("RULE", "CONDITION", "FOR", "TABLES", "SEVERITY", "CHANNELS");
            for (JsonNode r : api.get("/api/v1/alerts/rules")) {
                String window = text(r, "window");
                String metric = r.get("metric").asText();
                String threshold = r.get("threshold").asText();
                if (metric.endsWith("Ms") && threshold.matches("\\d+(\\.0+)?")) {
                    threshold = StatusCommand.duration((long) Double.parseDouble(threshold));
                }
                table.row(r.get("name").asText(),
                        metric + " " + r.get("comparison").asText() + " " + threshold + (window == null ? "" : " in " + window),
                        text(r, "for"), text(r, "tables"), text(r, "severity"), r.get("channels").toString());
            }
            table.print(out);
        }
    }

    @Command(name = "set-rule", mixinStandardHelpOptions = true,
            description = "Creates or replaces a rule, e.g. set-rule slow --metric syncLatencyMs --comparison '>' --threshold 5min --for 2min")
    static final class SetRule extends ClientCommand {
        @Parameters(paramLabel = "NAME") String name;
        @Option(names = "--metric", required = true, completionCandidates = MetricIds.class,
                description = "A metric id (or its Prometheus name): ${COMPLETION-CANDIDATES}") String metric;
        @Option(names = "--comparison", required = true, description = ">, >=, <, <=") String comparison;
        @Option(names = "--threshold", required = true, description = "A number, or a duration such as 5min for *Ms metrics") String threshold;
        @Option(names = "--for", description = "How long the condition must hold before firing (default 0s)") String forDuration;
        @Option(names = "--window", description = "For counters: compare the increase over this window") String window;
        @Option(names = "--tables", description = "Table pattern such as 'shop.*' (default: all tables)") String tables;
        @Option(names = "--severity", description = "info, warning or critical (default warning)") String severity;
        @Option(names = "--channel", description = "Channel to notify; repeatable (default: log)") List<String> channels = new ArrayList<>();

        @Override
        void run(PrintWriter out) throws Exception {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("metric", metric);
            body.put("comparison", comparison);
            body.put("threshold", threshold);
            body.put("for", forDuration);
            body.put("window", window);
            body.put("tables", tables);
            body.put("severity", severity);
            body.put("channels", channels.isEmpty() ? null : channels);
            api.put("/api/v1/alerts/rules/" + name, body);
            out.println("Alert rule '" + name + "' saved");
        }
    }

    @Command(name = "delete-rule", mixinStandardHelpOptions = true, description = "Deletes a rule.")
    static final class DeleteRule extends ClientCommand {
        @Parameters(paramLabel = "NAME") String name;

        @Override
        void run(PrintWriter out) throws Exception {
            api.delete("/api/v1/alerts/rules/" + name);
            out.println("Alert rule '" + name + "' deleted");
        }
    }

    @Command(name = "metrics", mixinStandardHelpOptions = true,
            description = "Lists the per-table metrics rules can watch (--metric takes the id or the Prometheus name).")
    static final class Metrics extends ClientCommand {
        @Override
        void run(PrintWriter out) throws Exception {
            TextTable table = new TextTable("METRIC", "PROMETHEUS NAME", "UNIT", "KIND", "MEANING");
            for (JsonNode m : api.get("/api/v1/metrics/catalogue")) {
                table.row(m.get("id").asText(), m.get("prometheusName").asText(), m.get("unit").asText(),
                        m.get("counter").asBoolean() ? "counter" : "gauge", m.get("help").asText());
            }
            table.print(out);
        }
    }

    @Command(name = "channels", mixinStandardHelpOptions = true, description = "Lists the notification channels.")
    static final class Channels extends ClientCommand {
        @Override
        void run(PrintWriter out) throws Exception {
            TextTable table = new TextTable("CHANNEL", "TYPE", "URL");
            for (JsonNode c : api.get("/api/v1/alerts/channels")) {
                table.row(c.get("name").asText(), c.get("type").asText(), text(c, "url"));
            }
            table.print(out);
        }
    }

    @Command(name = "set-channel", mixinStandardHelpOptions = true,
            description = "Creates or replaces a channel: --type webhook --webhook-url http://... or --type log.")
    static final class SetChannel extends ClientCommand {
        @Parameters(paramLabel = "NAME") String name;
        @Option(names = "--type", required = true, description = "webhook or log") String type;
        @Option(names = "--webhook-url", description = "Where a webhook channel POSTs") String url;

        @Override
        void run(PrintWriter out) throws Exception {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("type", type);
            body.put("url", url);
            api.put("/api/v1/alerts/channels/" + name, body);
            out.println("Channel '" + name + "' saved");
        }
    }

    @Command(name = "delete-channel", mixinStandardHelpOptions = true, description = "Deletes a channel no rule uses.")
    static final class DeleteChannel extends ClientCommand {
        @Parameters(paramLabel = "NAME") String name;

        @Override
        void run(PrintWriter out) throws Exception {
            api.delete("/api/v1/alerts/channels/" + name);
            out.println("Channel '" + name + "' deleted");
        }
    }

    @Command(name = "events", mixinStandardHelpOptions = true, description = "Shows alert history, newest first.")
    static final class Events extends ClientCommand {
        @Option(names = "--active", description = "Only alerts firing now") boolean active;
        @Option(names = "--rule", description = "Only this rule") String rule;
        @Option(names = "--table", description = "Only this table (db.table)") String table;
        @Option(names = "--limit", defaultValue = "50", description = "At most this many (default ${DEFAULT-VALUE})") int limit;

        @Override
        void run(PrintWriter out) throws Exception {
            StringBuilder query = new StringBuilder("/api/v1/alerts/events?limit=" + limit);
            if (active) {
                query.append("&active=true");
            }
            if (rule != null) {
                query.append("&rule=").append(java.net.URLEncoder.encode(rule, java.nio.charset.StandardCharsets.UTF_8));
            }
            if (table != null) {
                query.append("&table=").append(java.net.URLEncoder.encode(table, java.nio.charset.StandardCharsets.UTF_8));
            }
            TextTable events = new TextTable("AT", "STATE", "SEVERITY", "RULE", "TABLE", "VALUE", "MESSAGE");
            for (JsonNode e : api.get(query.toString())) {
                events.row(e.get("at").asText(), e.get("state").asText(), e.get("severity").asText(), e.get("rule").asText(),
                        e.get("table").asText(), text(e, "value"), e.get("message").asText());
            }
            events.print(out);
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
