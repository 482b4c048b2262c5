package io.lakesync.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs many CLI command lines in one JVM, for {@link TerminalOutputIT}: one JVM start instead of one per case.
 * Reads one case per line (words separated by tabs) from the file named by its argument; before each case it
 * writes {@link #MARKER} and the case's number to stdout and stderr, after it the exit code to stdout.
 */
public final class CliCases {

    static final String MARKER = "=== case ";
    static final String EXIT = "=== exit ";

    private CliCases() {}

    public static void main(String[] args) throws Exception {
        List<String> cases = Files.readAllLines(Path.of(args[0]));
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        for (int i = 0; i < cases.size(); i++) {
            out.println(MARKER + i);
            err.println(MARKER + i);
            int code = LakeSyncCli.execute(out, err, cases.get(i).split("\t"));
            out.println(EXIT + i + " " + code);
        }
        System.exit(0); // Fluss clients of the failed cases leave non-daemon threads
    }
}
