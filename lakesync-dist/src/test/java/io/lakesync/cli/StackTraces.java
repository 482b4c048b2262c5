package io.lakesync.cli;

import java.util.List;
import java.util.regex.Pattern;

/** Finds the lines of a Java stack trace in terminal output, which the failure rule keeps out of it. */
final class StackTraces {

    private static final Pattern LINE = Pattern.compile(
            "^(\\s+at [\\w$.<>/]+\\(.*\\)|Caused by: .*|\\s+\\.\\.\\. \\d+ more|Exception in thread .*)$");

    private StackTraces() {}

    /** Every stack-trace line in {@code output}. */
    static List<String> in(String output) {
        return output.lines().filter(line -> LINE.matcher(line).matches()).toList();
    }
}
