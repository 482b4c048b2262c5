package io.lakesync.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code lakesync service status|enable|disable}: the cluster-level switch (enable and disable need the owner). */
@Command(name = "service", mixinStandardHelpOptions = true,
        description = "The cluster-level switch of the lakesync service.",
        subcommands = {ServiceCommand.Status.class, ServiceCommand.Enable.class, ServiceCommand.Disable.class})
final class ServiceCommand {

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Shows whether the service is on.")
    static final class Status extends ClientCommand {
        @Override
        void run(PrintWriter out) throws Exception {
            JsonNode state = api.get("/api/v1/service");
            out.println("lakesync service is " + (state.get("enabled").asBoolean() ? "ON" : "OFF"));
        }
    }

    @Command(name = "enable", mixinStandardHelpOptions = true,
            description = "Checks the prerequisites, then switches the service on.")
    static final class Enable extends ClientCommand {
        @Override
        void run(PrintWriter out) throws Exception {
            JsonNode result = api.post("/api/v1/service/enable");
            TextTable checks = new TextTable("CHECK", "RESULT", "DETAIL");
            result.get("checks").forEach(c -> checks.row(c.get("name").asText(), c.get("passed").asBoolean() ? "ok" : "FAILED", c.get("detail").asText()));
            checks.print(out);
            out.println("lakesync service is ON");
        }
    }

    @Command(name = "disable", mixinStandardHelpOptions = true,
            description = "Switches the service off; refused while any table has lake sync enabled.")
    static final class Disable extends ClientCommand {
        @Override
        void run(PrintWriter out) throws Exception {
            api.post("/api/v1/service/disable");
            out.println("lakesync service is OFF");
        }
    }
}
