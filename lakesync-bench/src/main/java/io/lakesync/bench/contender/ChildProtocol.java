package io.lakesync.bench.contender;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * Lines a contender child process writes on its standard output, each {@value #PREFIX}{@code TYPE [json]}; any
 * other output is not part of the protocol. The driver writes {@value #STOP} on the child's standard input to
 * end it.
 *
 * <pre>
 *   start ──► READY ─┬─► (bound) ──────────────────────────────────► DONE {figures} ──┐
 *                    ├─► (bound with a warm-up) its warm-up, WARMED ──► DONE {figures} ──┤
 *                    └─► (tiering) runs; the driver drives any warm-up ──────────────────┤
 *                                                 exit ◄── STATS {peakHeapBytes} ◄── STOP
 *   any time: FAILED {message} when the engine or bound failed for good
 *   lakesync with {@value ChildArgs#REPORT_STAGES}: STAGE {table, stage} each time a round passes a stage
 * </pre>
 */
public final class ChildProtocol {

    public static final String PREFIX = "@@bench ";
    public static final String STOP = "STOP";

    /** Event types of the protocol. */
    public enum Type { READY, WARMED, DONE, FAILED, STATS, STAGE }

    /** One protocol line, read back. */
    public record Event(Type type, Map<String, Object> payload) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintStream out;

    public ChildProtocol(PrintStream out) {
        this.out = out;
    }

    /** The protocol on this process's standard output, kept for it alone: what libraries print goes to standard error. */
    public static ChildProtocol onStandardOutput() {
        PrintStream protocolOut = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        return new ChildProtocol(protocolOut);
    }

    /** Blocks until the driver writes {@value #STOP} on {@code stdin} or goes away (end of input). */
    public static void awaitStop(BufferedReader stdin) throws IOException {
        String line;
        while ((line = stdin.readLine()) != null && !line.trim().equals(STOP)) {
            // not for us
        }
    }

    public void send(Type type, Map<String, ?> payload) {
        try {
            synchronized (out) {
                out.println(PREFIX + type + " " + JSON.writeValueAsString(payload));
                out.flush();
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The event on {@code line}, or empty for a line that is not part of the protocol. */
    public static Optional<Event> parse(String line) {
        if (!line.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String rest = line.substring(PREFIX.length());
        int space = rest.indexOf(' ');
        String type = space < 0 ? rest : rest.substring(0, space);
        try {
            Map<String, Object> payload =
                    space < 0 ? Map.of() : JSON.readValue(rest.substring(space + 1), new TypeReference<>() {});
            return Optional.of(new Event(Type.valueOf(type), payload));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
