package io.lakesync.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code lakesync status}: one line per table with its state, sync latency, checkpoint and pending records. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Shows every table's sync state, sync latency, checkpoint and pending records.")
final class StatusCommand extends ClientCommand {

    @Option(names = "--wide", description = "Also shows the lake table's shape after the last maintenance pass: "
            + "data files, average file size, small-file ratio, snapshots kept, last compaction.")
    boolean wide;

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    @Override
    void run(PrintWriter out) throws Exception {
        TextTable table = wide
                ? new TextTable("TABLE", "STATE", "SYNC LATENCY", "CHECKPOINT", "PENDING", "ROWS/S", "FILES", "AVG FILE",
                        "SMALL", "SNAPSHOTS", "LAST COMPACTION", "REASON")
                : new TextTable("TABLE", "STATE", "SYNC LATENCY", "CHECKPOINT", "PENDING", "ROWS/S", "REASON");
        for (JsonNode t : api.get("/api/v1/tables")) {
            JsonNode snapshot = t.get("lakeSnapshotId");
            String checkpoint = snapshot == null || snapshot.isNull() ? "-"
                    : "snapshot " + snapshot.asLong() + " @ " + TIME.format(Instant.parse(t.get("lakeCommittedAt").asText()));
            List<Object> cells = new ArrayList<>(List.of(
                    t.get("database").asText() + "." + t.get("table").asText(),
                    state(t),
                    duration(t.get("syncLatencyMs").asLong()),
                    checkpoint,
                    t.get("pendingRecords").asLong(),
                    Math.round(t.get("activity").get("lastRoundRowsPerSecond").asDouble())));
            if (wide) {
                cells.addAll(maintenance(t.get("activity").path("maintenance")));
            }
            cells.add(t.get("reason").asText());
            table.row(cells.toArray());
        }
        table.print(out);
    }

    /** Files, average size, small-file ratio, snapshots and last compaction; dashes before the first pass. */
    private static List<Object> maintenance(JsonNode m) {
        if (m.isMissingNode() || m.isNull()) {
            return List.of("-", "-", "-", "-", "-");
        }
        JsonNode compacted = m.get("lastCompaction");
        return List.of(
                m.get("dataFiles").asLong(),
                m.get("averageFileBytes").asLong() / 1024 + " KiB",
                Math.round(m.get("smallFileRatio").asDouble() * 100) + "%",
                m.get("snapshotsKept").asLong(),
                compacted == null || compacted.isNull() ? "never" : TIME.format(Instant.parse(compacted.asText())));
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
