package io.lakesync.cli;

import static io.lakesync.tiering.capacity.ComputeUnit.GIB_PER_CU;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code lakesync usage}: CU-hours per table, database or day, split into provisioned and pay-as-you-go. */
@Command(name = "usage", mixinStandardHelpOptions = true,
        description = "Shows compute usage (CU-hours, CPU, rows, bytes) split into provisioned and pay-as-you-go.")
final class UsageCommand extends ClientCommand {

    private static final String[] HEADER = {
        "KEY", "ROUNDS", "CPU S", "MEMORY GIB-S", "CU-HOURS", "PROVISIONED", "PAY-AS-YOU-GO", "ROWS", "BYTES"
    };

    @Option(names = "--from", description = "Start: a UTC time like 2026-11-30T10:00:00Z or a day like 2026-11-30 (default: 24 hours before --to).")
    String from;

    @Option(names = "--to", description = "End, exclusive, like --from (default: now, rounded up to the hour).")
    String to;

    @Option(names = "--by", defaultValue = "table", description = "Group by table, database or day (default: ${DEFAULT-VALUE}).")
    String by;

    @Option(names = "--csv", description = "Print CSV instead of a text table.")
    boolean csv;

    @Override
    void run(PrintWriter out) throws Exception {
        StringBuilder query = new StringBuilder("/api/v1/usage?by=").append(encode(by));
        if (from != null) {
            query.append("&from=").append(encode(from));
        }
        if (to != null) {
            query.append("&to=").append(encode(to));
        }
        JsonNode report = api.get(query.toString());
        List<List<String>> rows = new ArrayList<>();
        report.get("lines").forEach(line -> rows.add(cells(line)));
        rows.add(cells(report.get("total")));
        if (csv) {
            out.println(String.join(",", HEADER).toLowerCase(Locale.ROOT).replace(' ', '_'));
            rows.forEach(row -> out.println(String.join(",", row.stream().map(UsageCommand::csvCell).toList())));
            out.flush();
            return;
        }
        out.println("Usage by " + report.get("by").asText() + " from " + report.get("from").asText() + " to "
                + report.get("to").asText() + " (provisioned: " + report.get("provisionedCu").asDouble() + " CU)");
        TextTable table = new TextTable(HEADER);
        rows.forEach(row -> table.row(row.toArray()));
        table.print(out);
        out.println("A CU is one running round (what quota.cluster-cu and quota.database-cu count), metered as at most "
                + "one CU-hour per hour: its CPU, or its memory / " + GIB_PER_CU + " GiB, within its wall time.");
        out.flush();
    }

    private static List<String> cells(JsonNode line) {
        return List.of(
                line.get("key").asText(),
                line.get("rounds").asText(),
                String.format(Locale.ROOT, "%.3f", line.get("cpuSeconds").asDouble()),
                String.format(Locale.ROOT, "%.1f", line.get("memoryGibSeconds").asDouble()),
                String.format(Locale.ROOT, "%.6f", line.get("cuHours").asDouble()),
                String.format(Locale.ROOT, "%.6f", line.get("provisionedCuHours").asDouble()),
                String.format(Locale.ROOT, "%.6f", line.get("payAsYouGoCuHours").asDouble()),
                line.get("rowsTiered").asText(),
                line.get("bytesTiered").asText());
    }

    private static String csvCell(String cell) {
        return cell.contains(",") || cell.contains("\"") ? "\"" + cell.replace("\"", "\"\"") + "\"" : cell;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
