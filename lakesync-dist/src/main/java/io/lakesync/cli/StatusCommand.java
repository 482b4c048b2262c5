package io.lakesync.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import picocli.CommandLine.Command;

/** {@code lakesync status}: one line per table with its state, sync latency, checkpoint and pending records. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Shows every table's sync state, sync latency, checkpoint and pending records.")
final class StatusCommand extends ClientCommand {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    @Override
    void run(PrintWriter out) throws Exception {
        TextTable table = new TextTable("TABLE", "STATE", "SYNC LATENCY", "CHECKPOINT", "PENDING", "ROWS/S", "REASON");
        for (JsonNode t : api.get("/api/v1/tables")) {
            JsonNode snapshot = t.get("lakeSnapshotId");
            String checkpoint = snapshot == null || snapshot.isNull() ? "-"
                    : "snapshot " + snapshot.asLong() + " @ " + TIME.format(Instant.parse(t.get("lakeCommittedAt").asText()));
            table.row(
                    t.get("database").asText() + "." + t.get("table").asText(),
                    state(t),
                    duration(t.get("syncLatencyMs").asLong()),
                    checkpoint,
                    t.get("pendingRecords").asLong(),
                    Math.round(t.get("activity").get("lastRoundRowsPerSecond").asDouble()),
                    t.get("reason").asText());
        }
        table.print(out);
    }

    /** The state, marked when its figures are the last known ones because the table cannot be observed now. */
    private static String state(JsonNode table) {
        String state = table.get("state").asText();
        return table.path("stale").asBoolean() && !state.equals("UNKNOWN") ? state + " (stale)" : state;
    }

    static String duration(long millis) {
        Duration d = Duration.ofMillis(millis);
        if (d.toHours() > 0) {
            return d.toHours() + "h " + d.toMinutesPart() + "m";
        }
        if (d.toMinutes() > 0) {
            return d.toMinutes() + "m " + d.toSecondsPart() + "s";
        }
        return String.format("%.1fs", millis / 1000.0);
    }
}
