package io.lakesync.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lakesync tables ...}: lake sync on and off per table, and lake tables left by dropped tables. */
@Command(name = "tables", mixinStandardHelpOptions = true,
        description = "Turns lake sync on or off per table; lists, deletes or adopts lake tables of dropped tables.",
        subcommands = {TablesCommand.Enable.class, TablesCommand.Disable.class, TablesCommand.Retained.class,
            TablesCommand.DeleteRetained.class, TablesCommand.Adopt.class})
final class TablesCommand {

    @Command(name = "enable", mixinStandardHelpOptions = true,
            description = "ALTER TABLE ... SET ('table.datalake.enabled' = 'true'), after lakesync's checks.")
    static final class Enable extends ClientCommand {
        @Parameters(paramLabel = "DB.TABLE") String table;

        @Override
        void run(PrintWriter out) throws Exception {
            api.post("/api/v1/tables/" + tablePath(table) + "/enable");
            out.println("Lake sync enabled for " + table);
        }
    }

    @Command(name = "disable", mixinStandardHelpOptions = true,
            description = "ALTER TABLE ... SET ('table.datalake.enabled' = 'false'); the lake table is kept.")
    static final class Disable extends ClientCommand {
        @Parameters(paramLabel = "DB.TABLE") String table;

        @Override
        void run(PrintWriter out) throws Exception {
            api.post("/api/v1/tables/" + tablePath(table) + "/disable");
            out.println("Lake sync disabled for " + table + "; its lake table is kept");
        }
    }

    @Command(name = "retained", mixinStandardHelpOptions = true,
            description = "Lists lake tables whose Fluss table was dropped.")
    static final class Retained extends ClientCommand {
        @Override
        void run(PrintWriter out) throws Exception {
            TextTable table = new TextTable("LAKE TABLE", "SNAPSHOTS");
            for (JsonNode t : api.get("/api/v1/lake/retained")) {
                table.row(t.get("database").asText() + "." + t.get("table").asText(), t.get("snapshots").asLong());
            }
            table.print(out);
        }
    }

    @Command(name = "delete-retained", mixinStandardHelpOptions = true,
            description = "Deletes the lake table of a dropped Fluss table, data and all.")
    static final class DeleteRetained extends ClientCommand {
        @Parameters(paramLabel = "DB.TABLE") String table;

        @Override
        void run(PrintWriter out) throws Exception {
            api.delete("/api/v1/lake/retained/" + tablePath(table));
            out.println("Deleted lake table " + table);
        }
    }

    @Command(name = "adopt", mixinStandardHelpOptions = true,
            description = "Continues syncing a re-created table into the lake table its dropped namesake left: the "
                    + "retained rows stay and the table's own rows are added, each once.")
    static final class Adopt extends ClientCommand {
        @Parameters(paramLabel = "DB.TABLE") String table;

        @Option(names = "--keep-old-keys",
                description = "Required for a primary-key table: rows of keys the new table never writes stay in the lake.")
        boolean keepOldKeys;

        @Override
        void run(PrintWriter out) throws Exception {
            JsonNode adopted = api.post("/api/v1/tables/" + tablePath(table) + "/adopt" + (keepOldKeys ? "?keepOldKeys=true" : ""));
            out.println("Adopted lake table " + table + " (" + adopted.path("retainedRows").asText("?")
                    + " retained rows); the table's own rows follow from its first offset");
        }
    }
}
