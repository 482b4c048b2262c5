package io.lakesync.cli;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.errors.ErrorMessages;
import io.lakesync.server.LakeSyncVersion;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.apache.paimon.fs.UnsupportedSchemeException;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.slf4j.MarkerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code lakesync} command line. A failure prints one line on stderr (stack traces go to the data folder's
 * log file only) and exits 1 when start-up or the command fails, 2 for bad usage or configuration (the line names
 * the flag or config key), 3 when a stop did not finish within its bound (the line names the step it was in);
 * 0 after a clean stop.
 */
@Command(
        name = "lakesync",
        mixinStandardHelpOptions = true,
        versionProvider = LakeSyncCli.Version.class,
        description = "Keeps Fluss tables with 'table.datalake.enabled'='true' synchronized into Apache Paimon.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done, or stopped cleanly",
            "1:start-up or the command failed (one line says why)",
            "2:bad usage or configuration (the line names the flag or config key)",
            "3:a stop did not finish within its bound (the line names the step)"
        },
        subcommands = {
            LocalCommand.class, ServeCommand.class, StatusCommand.class, TablesCommand.class, AlertsCommand.class,
            ServiceCommand.class, ConfigReferenceCommand.class, InstancesCommand.class, VerifyCommand.class,
            MigrateCommand.class, UsageCommand.class
        })
public final class LakeSyncCli implements Callable<Integer> {

    static final int START_FAILED = 1;
    static final int BAD_INPUT = 2;
    static final int STOP_TIMED_OUT = 3;

    /** Log lines the terminal leaves out ({@code log4j2.xml}): they are in the data folder's log file. */
    static final Marker LOG_FILE_ONLY = MarkerFactory.getMarker("LOG_FILE_ONLY");

    @Spec private CommandSpec spec;

    /** Runs the command and exits: ZooKeeper and Fluss leave non-daemon threads that would keep the JVM up. */
    public static void main(String[] args) {
        System.exit(execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs the command with the given streams and returns its exit code. */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine root = new CommandLine(new LakeSyncCli());
        try {
            return root
                    .setOut(out)
                    .setErr(err)
                    .setExecutionStrategy(UsageErrors::executeStrictly)
                    .setParameterExceptionHandler(UsageErrors::report)
                    .setExecutionExceptionHandler((e, commandLine, parseResult) -> failed(e, commandLine))
                    .execute(args);
        } catch (Error e) { // picocli lets Errors through, a broken class path for one
            return failed(e, root);
        }
    }

    /** One line for the terminal and the exit code; the stack trace of an unexpected failure goes to the log file. */
    private static int failed(Throwable e, CommandLine command) {
        PrintWriter err = command.getErr();
        ConfigException configError = configCause(e);
        if (configError != null) {
            err.println("lakesync: " + ErrorMessages.oneLine(configError.getMessage()));
            return BAD_INPUT;
        }
        if (ErrorMessages.rootCause(e) instanceof UnsupportedSchemeException unsupported) {
            err.println("lakesync: The lake's storage is not supported, check config key '" + LakeSyncOptions.LAKE_PREFIX
                    + "warehouse': " + ErrorMessages.oneLine(unsupported.getMessage()));
            return BAD_INPUT;
        }
        LoggerFactory.getLogger(LakeSyncCli.class).error(LOG_FILE_ONLY, "lakesync failed", e);
        boolean starting = command.getCommand() instanceof ServeCommand || command.getCommand() instanceof LocalCommand;
        String failure = starting ? "failed to start" : command.getCommandSpec().qualifiedName() + " failed";
        err.println("lakesync: " + failure + ": " + ErrorMessages.describe(e));
        return START_FAILED;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return BAD_INPUT;
    }

    private static ConfigException configCause(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConfigException) {
                return (ConfigException) cause;
            }
        }
        return null;
    }

    /** {@code --version}. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"lakesync " + LakeSyncVersion.get()};
        }
    }
}
