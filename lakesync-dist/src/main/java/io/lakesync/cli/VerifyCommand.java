package io.lakesync.cli;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.fluss.FlussClient;
import io.lakesync.tiering.lake.LakeTables;
import io.lakesync.verify.TableReport;
import io.lakesync.verify.TableVerifier;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.fluss.metadata.TablePath;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code lakesync verify DB.TABLE | --all}: audits lake tables against Fluss ({@link TableVerifier}). Exit 0 when
 * every table is OK, 1 when one differs, 2 for bad input.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Checks lake tables against Fluss: per bucket lake offset vs Fluss; log tables hold every offset "
                + "once and contiguously; primary-key tables' merged rows equal Fluss's state at the lake offsets.")
final class VerifyCommand implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "DB.TABLE", description = "The table to verify.")
    private String table;

    @Option(names = "--all", description = "Verify every table with lake sync enabled.")
    private boolean all;

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "./lakesync-data",
            description = "Data folder of a local stack (default: ${DEFAULT-VALUE}).")
    private Path dataDir;

    @Mixin private ClusterTarget target;

    @Spec private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (all == (table != null)) {
            spec.commandLine().getErr().println("lakesync: name one table as DB.TABLE, or pass --all.");
            return LakeSyncCli.BAD_INPUT;
        }
        LakeSyncConfig config = target.load(dataDir);
        try (FlussClient fluss = FlussClient.forCommand(config.flussClientConfiguration());
                LakeTables lake = new LakeTables(config.lakeCatalogOptions())) {
            TableVerifier verifier = new TableVerifier(fluss, lake);
            List<TablePath> tables;
            if (all) {
                tables = verifier.lakeEnabledTables();
            } else {
                String[] parts = ClientCommand.tablePath(table).split("/", 2);
                TablePath path = TablePath.of(parts[0], parts[1]);
                if (!fluss.tableExists(path).get()) {
                    spec.commandLine().getErr().println("lakesync: table " + path + " does not exist in Fluss.");
                    return LakeSyncCli.BAD_INPUT;
                }
                tables = List.of(path);
            }
            boolean ok = true;
            for (TablePath path : tables) {
                TableReport report = verifier.verify(path);
                report.print(out);
                ok &= report.ok();
            }
            if (tables.isEmpty()) {
                out.println("No table has lake sync enabled; nothing to verify.");
            }
            return ok ? 0 : 1;
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("lakesync: " + e.getMessage());
            return LakeSyncCli.BAD_INPUT;
        }
    }
}
