package io.lakesync.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code lakesync instances}: every lakesync instance on the shared state, its heartbeat and the tables it holds. */
@Command(name = "instances", mixinStandardHelpOptions = true,
        description = "Lists the lakesync instances sharing this service's state: alive or dead, leader, tables held.")
final class InstancesCommand extends ClientCommand {

    @Override
    void run(PrintWriter out) throws Exception {
        JsonNode answer = api.get("/api/v1/instances");
        String self = answer.get("self").asText();
        TextTable table = new TextTable(
                "INSTANCE", "STATE", "ROLE", "URL", "VERSION", "UP SINCE", "HEARTBEAT", "HELD/CAPACITY", "TABLES");
        for (JsonNode i : answer.get("instances")) {
            String id = i.get("id").asText();
            List<String> held = new ArrayList<>();
            i.get("tablesHeld").forEach(t -> held.add(t.asText()));
            table.row(
                    id.equals(self) ? id + " (this)" : id,
                    i.get("state").asText(),
                    i.get("leader").asBoolean() ? "leader" : "-",
                    i.get("url").asText(),
                    i.get("version").asText(),
                    i.get("startedAt").asText(),
                    // Aged by the service on the database's clock, which stamped it: this machine's clock may be off.
                    i.has("heartbeatAgeMillis") ? StatusCommand.duration(i.get("heartbeatAgeMillis").asLong()) + " ago" : "-",
                    held.size() + "/" + i.get("capacity").asInt(),
                    held.isEmpty() ? "-" : String.join(",", held));
        }
        table.print(out);
    }
}
