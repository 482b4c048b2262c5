package io.lakesync.cluster;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.server.LakeSyncServer;
import io.lakesync.tiering.TieringProcessMain;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A whole lakesync service ({@link LakeSyncServer}, what {@code lakesync serve} runs) in a JVM of its own, from
 * {@code key=value} config arguments; prints {@code READY <url>} once it serves. Killing the process is a crash.
 */
public final class ServiceProcessMain {

    /** Starts this class in a child JVM with the test JVM's class path and module flags; output goes to {@code log}. */
    public static Process startChild(Map<String, String> config, Path log) throws IOException {
        List<String> command =
                TieringProcessMain.javaCommand(ServiceProcessMain.class, "-Xmx512m", "-XX:TieredStopAtLevel=1");
        config.forEach((k, v) -> command.add(k + "=" + v));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> config = new HashMap<>();
        for (String arg : args) {
            config.put(arg.substring(0, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        LakeSyncServer server = LakeSyncServer.start(LakeSyncConfig.fromMap(config, "arguments"));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                e.printStackTrace();
            }
        }));
        System.out.println("READY " + server.url());
        Thread.currentThread().join();
    }
}
