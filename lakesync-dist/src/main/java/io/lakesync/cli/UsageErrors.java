package io.lakesync.cli;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Bad command lines: one line on stderr naming what was wrong and what to type instead, exit code
 * {@link LakeSyncCli#BAD_INPUT}. Unknown words fail even next to {@code --help}, which picocli would otherwise
 * honour silently, so a typo in a script does not pass.
 */
final class UsageErrors {

    private UsageErrors() {}

    /** Runs the parsed command, after rejecting any word no command or option took. */
    static int executeStrictly(ParseResult parsed) {
        for (ParseResult level = parsed; level != null; level = level.subcommand()) {
            if (!level.unmatched().isEmpty()) {
                throw new UnmatchedArgumentException(level.commandSpec().commandLine(), level.unmatched());
            }
        }
        return new CommandLine.RunLast().execute(parsed);
    }

    /** Prints the one line for {@code e} and returns the exit code. */
    static int report(ParameterException e, String[] args) {
        e.getCommandLine().getErr().println("lakesync: " + describe(e));
        return LakeSyncCli.BAD_INPUT;
    }

    private static String describe(ParameterException e) {
        CommandLine command = e.getCommandLine();
        String name = command.getCommandSpec().qualifiedName();
        String help = " (see '" + name + " --help')";
        if (!(e instanceof UnmatchedArgumentException unmatched) || unmatched.getUnmatched().isEmpty()) {
            return name + ": " + e.getMessage() + help;
        }
        String word = unmatched.getUnmatched().get(0);
        if (word.startsWith("-")) {
            String option = word.split("=", 2)[0];
            List<String> options = command.getCommandSpec().options().stream().flatMap(o -> Stream.of(o.names())).toList();
            return name + ": unknown option '" + option + "'" + didYouMean(option, options) + help;
        }
        if (command.getSubcommands().isEmpty()) {
            return name + ": unexpected argument '" + word + "'" + help;
        }
        Set<String> commands = command.getSubcommands().keySet();
        String didYouMean = didYouMean(word, commands);
        return "unknown command '" + word + "'"
                + (didYouMean.isEmpty() ? "; the commands are: " + String.join(", ", commands) : didYouMean)
                + help;
    }

    /** "; did you mean 'x'?" for the candidates a typo or two away from {@code word}, else empty. */
    private static String didYouMean(String word, Collection<String> candidates) {
        int bound = Math.max(2, word.length() / 3);
        List<String> near = candidates.stream().filter(c -> editDistance(word, c) <= bound).toList();
        return near.isEmpty() ? "" : "; did you mean '" + String.join("' or '", near) + "'?";
    }

    /** Levenshtein distance: the fewest single-character insertions, deletions and substitutions. */
    private static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
