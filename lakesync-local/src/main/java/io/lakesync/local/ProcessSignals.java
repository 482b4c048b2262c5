package io.lakesync.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Sends POSIX signals to processes by id, with the system's {@code kill}: the JDK can only terminate a process. */
public final class ProcessSignals {

    private ProcessSignals() {}

    /**
     * Sends {@code SIG<signal>} (e.g. {@code STOP}, {@code CONT}) to {@code pids}, which belong to {@code what} (for the
     * message). A process that ended before the signal reached it is no failure; anything else is.
     */
    public static void send(String signal, List<Long> pids, String what) throws IOException {
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
        pids.forEach(pid -> command.add(Long.toString(pid)));
        Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            boolean onlyVanished = output.lines().filter(line -> !line.isBlank())
                    .allMatch(line -> line.contains("No such process"));
            if (kill.waitFor() != 0 && !onlyVanished) {
                throw new IllegalStateException("Cannot send SIG" + signal + " to " + what + ": " + command + "\n" + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + command, e);
        }
    }
}
