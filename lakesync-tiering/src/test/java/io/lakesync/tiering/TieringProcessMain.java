package io.lakesync.tiering;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.tiering.round.RoundStage;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A lakesync tiering service in its own JVM, killed with {@code Runtime.halt} (no shutdown hooks, no
 * cleanup: what {@code kill -9} does) when a round of table {@code --halt-table} reaches stage
 * {@code --halt-at}, optionally {@code --halt-delay-ms} later, while that round is still writing.
 * Arguments: {@code key=value} config entries and those three options.
 */
public final class TieringProcessMain {

    public static final int HALT_EXIT_CODE = 137;

    /**
     * Starts this class in a child JVM with the test JVM's class path and module flags, the config entries
     * and the extra arguments; its output (stdout and stderr) goes to {@code log}.
     */
    public static Process startChild(LakeSyncConfig config, List<String> extraArgs, Path log) throws IOException {
        List<String> command = javaCommand(TieringProcessMain.class, "-Xmx1g");
        config.toMap().forEach((k, v) -> command.add(k + "=" + v));
        command.addAll(extraArgs);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectErrorStream(true);
        builder.redirectOutput(log.toFile());
        return builder.start();
    }

    /**
     * The command that runs {@code mainClass} in a child JVM with the test JVM's class path and module flags, and
     * {@code jvmOptions}; program arguments go after it.
     */
    public static List<String> javaCommand(Class<?> mainClass, String... jvmOptions) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens") || arg.startsWith("-Dio.netty")) {
                command.add(arg);
            }
        }
        command.addAll(List.of(jvmOptions));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        return command;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> config = new HashMap<>();
        String haltTable = null;
        RoundStage haltAt = null;
        long haltDelayMs = 0;
        for (String arg : args) {
            String key = arg.substring(0, arg.indexOf('='));
            String value = arg.substring(arg.indexOf('=') + 1);
            switch (key) {
                case "--halt-table" -> haltTable = value;
                case "--halt-at" -> haltAt = RoundStage.valueOf(value);
                case "--halt-delay-ms" -> haltDelayMs = Long.parseLong(value);
                default -> config.put(key, value);
            }
        }
        String table = haltTable;
        RoundStage stage = haltAt;
        long delay = haltDelayMs;
        RoundHooks hooks = (reached, assignment) -> {
            if (reached == stage && assignment.tablePath().getTableName().equals(table)) {
                if (delay == 0) {
                    Runtime.getRuntime().halt(HALT_EXIT_CODE);
                }
                Thread killer = new Thread(() -> {
                    try {
                        Thread.sleep(delay);
                    } catch (InterruptedException ignored) {
                        // halting anyway
                    }
                    Runtime.getRuntime().halt(HALT_EXIT_CODE);
                });
                killer.setDaemon(true);
                killer.start();
            }
        };
        TieringService service =
                new TieringService(LakeSyncConfig.fromMap(config, "arguments"), TieringListener.NONE, hooks, Clock.systemUTC());
        service.start();
        System.out.println("STARTED");
        Thread.currentThread().join();
    }
}
