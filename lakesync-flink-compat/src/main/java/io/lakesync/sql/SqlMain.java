package io.lakesync.sql;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lakesync sql}: Flink SQL against a Fluss cluster, its catalog preconfigured. Statements come from
 * {@code -e}, a file ({@code -f}), or an interactive prompt with line editing and history. Exit codes: 0, 1 when
 * a statement failed (printed as one line; {@code -e} and {@code -f} stop there), 2 for bad usage.
 */
@Command(name = "lakesync sql", mixinStandardHelpOptions = true,
        description = "Flink SQL with the Fluss catalog of a cluster preconfigured (the local stack by default).")
public final class SqlMain implements Callable<Integer> {

    static final int STATEMENT_FAILED = 1;
    static final int BAD_USAGE = 2;

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:9123",
            description = "Fluss bootstrap servers (default: the local stack, ${DEFAULT-VALUE}).")
    private String bootstrap;

    @Option(names = "--catalog", paramLabel = "NAME", defaultValue = "my-catalog",
            description = "Name of the Fluss catalog, the current one (default: ${DEFAULT-VALUE}).")
    private String catalog;

    @Option(names = "-e", paramLabel = "STATEMENTS", description = "Run these statements and exit.")
    private String statements;

    @Option(names = "-f", paramLabel = "FILE", description = "Run the statements of this file and exit.")
    private Path file;

    @Option(names = "--mode", paramLabel = "batch|streaming", defaultValue = "batch",
            description = "Runtime mode to start in (default: ${DEFAULT-VALUE}); "
                    + "SET 'execution.runtime-mode' = '...' switches.")
    private String mode;

    @Option(names = "--max-rows", paramLabel = "N", defaultValue = "0",
            description = "Stop a streaming query after N rows (default: 0, until it ends or Ctrl-C).")
    private long maxRows;

    @Option(names = "--history", paramLabel = "FILE", description = "History file of the prompt "
            + "(default: ~/.lakesync_sql_history).")
    private Path history = Path.of(System.getProperty("user.home"), ".lakesync_sql_history");

    private PrintWriter out;
    private PrintWriter err;

    public static void main(String[] args) {
        System.exit(execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs the command with the given streams and returns its exit code. */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        SqlMain command = new SqlMain();
        command.out = out;
        command.err = err;
        return new CommandLine(command).setOut(out).setErr(err)
                .setExecutionExceptionHandler((e, commandLine, parseResult) -> {
                    err.println("lakesync sql: " + oneLine(e));
                    return STATEMENT_FAILED;
                })
                .execute(args);
    }

    @Override
    public Integer call() throws Exception {
        if (!mode.equals("batch") && !mode.equals("streaming")) {
            err.println("lakesync sql: --mode is 'batch' or 'streaming', got '" + mode + "'.");
            return BAD_USAGE;
        }
        if (statements != null && file != null) {
            err.println("lakesync sql: pass -e or -f, not both.");
            return BAD_USAGE;
        }
        String script = statements;
        if (file != null) {
            try {
                script = Files.readString(file);
            } catch (IOException e) {
                err.println("lakesync sql: cannot read " + file + ": " + e.getMessage());
                return BAD_USAGE;
            }
        }
        SqlSession session;
        try {
            session = new SqlSession(catalog, bootstrap, mode.equals("streaming"), maxRows);
        } catch (Exception e) {
            err.println("lakesync sql: cannot open the Fluss catalog at " + bootstrap + " (--bootstrap): "
                    + oneLine(e));
            return STATEMENT_FAILED;
        }
        return script == null ? prompt(session) : runAll(session, StatementSplitter.split(script));
    }

    private int runAll(SqlSession session, List<String> all) {
        for (String statement : all) {
            if (!run(session, statement)) {
                return STATEMENT_FAILED;
            }
        }
        return 0;
    }

    private boolean run(SqlSession session, String statement) {
        try {
            session.execute(statement, out);
            return true;
        } catch (Exception e) {
            err.println("lakesync sql: " + oneLine(e));
            return false;
        }
    }

    /** The interactive prompt: a statement runs once a line ends it with {@code ;}. */
    private int prompt(SqlSession session) throws IOException {
        try (Terminal terminal = TerminalBuilder.builder().system(true).dumb(true).build()) {
            LineReader reader = LineReaderBuilder.builder()
                    .terminal(terminal)
                    .variable(LineReader.HISTORY_FILE, history)
                    .build();
            out.println("Fluss catalog `" + catalog + "` at " + bootstrap + ". End statements with ';', quit with "
                    + "Ctrl-D.");
            StringBuilder pending = new StringBuilder();
            while (true) {
                String line;
                try {
                    line = reader.readLine(pending.length() == 0 ? "lakesync sql> " : "           -> ");
                } catch (UserInterruptException e) {
                    pending.setLength(0);
                    continue;
                } catch (EndOfFileException e) {
                    return 0;
                }
                pending.append(line).append('\n');
                StatementSplitter typed = StatementSplitter.complete(pending.toString());
                typed.statements().forEach(statement -> run(session, statement));
                pending.setLength(0);
                pending.append(typed.rest());
                out.flush();
            }
        }
    }

    /** The innermost cause's message, first line only: Flink's outer messages repeat it with stack context. */
    static String oneLine(Throwable e) {
        Throwable cause = e;
        String message = e.getMessage();
        while (cause != null) {
            if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
                message = cause.getMessage();
            }
            cause = cause.getCause() == cause ? null : cause.getCause();
        }
        return message == null ? e.getClass().getSimpleName() : message.strip().lines().findFirst().orElse("");
    }
}
