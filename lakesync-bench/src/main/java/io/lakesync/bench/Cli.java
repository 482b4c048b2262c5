package io.lakesync.bench;

import io.lakesync.bench.contender.ChildJvm;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.fluss.utils.TimeUtils;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** What the benchmark's commands ({@code bench}, {@code soak}) share: start-up, option checks, progress lines. */
public final class Cli {

    private static final Pattern HEAP = Pattern.compile("[1-9][0-9]*[kKmMgG]");

    private Cli() {}

    /** Runs a picocli command and ends the JVM with its exit code. */
    public static void execute(Object command, String[] args) {
        if (System.getProperty("log4j2.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", ChildJvm.LOG_CONFIG);
        }
        int code = new CommandLine(command).execute(args);
        System.out.flush();
        // Fluss and ZooKeeper leave non-daemon threads behind.
        Runtime.getRuntime().halt(code);
    }

    /** The settings {@code parse} makes of the options; a value it rejects is a usage error (exit code 2). */
    public static <T> T checked(CommandSpec spec, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** A duration option such as 500ms, 30s or 10min. */
    public static Duration duration(String text, String option) {
        try {
            return TimeUtils.parseDuration(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    option + " must be a duration such as 500ms, 30s or 10min, got '" + text + "'.");
        }
    }

    public static void atLeast(long value, long min, String option) {
        if (value < min) {
            throw new IllegalArgumentException(option + " must be at least " + min + ", got " + value + ".");
        }
    }

    public static void positive(Duration value, String option) {
        if (value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(option + " must be a positive duration, got " + value + ".");
        }
    }

    /** A JVM heap size as {@code -Xmx} takes it. */
    public static void heapSize(String value, String option) {
        if (!HEAP.matcher(value).matches()) {
            throw new IllegalArgumentException(option + " must be a JVM heap size such as 2g or 1536m, got '" + value + "'.");
        }
    }

    /** Progress lines on standard error, {@code [tag HH:mm:ss] line}. */
    public static Consumer<String> progress(String tag) {
        DateTimeFormatter time = DateTimeFormatter.ofPattern("HH:mm:ss");
        return line -> System.err.println("[" + tag + " " + LocalTime.now().format(time) + "] " + line);
    }
}
