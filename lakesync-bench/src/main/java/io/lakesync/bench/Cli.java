package io.lakesync.bench;

import io.lakesync.bench.contender.ChildJvm;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.function.Consumer;
import org.apache.fluss.utils.TimeUtils;
import picocli.CommandLine;

/** What the benchmark's commands ({@code bench}, {@code soak}) share: start-up, options, progress lines. */
public final class Cli {

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

    /** A duration option such as 500ms, 30s or 10min. */
    public static Duration duration(String text, String option) {
        try {
            return TimeUtils.parseDuration(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    option + " must be a duration such as 500ms, 30s or 10min, got '" + text + "'.");
        }
    }

    /** Progress lines on standard error, {@code [tag HH:mm:ss] line}. */
    public static Consumer<String> progress(String tag) {
        DateTimeFormatter time = DateTimeFormatter.ofPattern("HH:mm:ss");
        return line -> System.err.println("[" + tag + " " + LocalTime.now().format(time) + "] " + line);
    }
}
