package io.lakesync.local;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ports a local stack picked for options set to 0 ("any free port"), kept in {@code ports.properties} in its
 * data folder so that the next start on that folder listens where clients last found it. A remembered port that
 * is taken by now is given up for a new free one (with a log line); an explicitly configured port always wins.
 */
final class RememberedPorts {

    private static final Logger LOG = LoggerFactory.getLogger(RememberedPorts.class);
    private static final String FILE = "ports.properties";

    private final Path file;
    private final Properties ports = new Properties();

    private RememberedPorts(Path file) {
        this.file = file;
    }

    static RememberedPorts in(Path dataDir) throws IOException {
        RememberedPorts remembered = new RememberedPorts(dataDir.resolve(FILE));
        if (Files.exists(remembered.file)) {
            try (Reader reader = Files.newBufferedReader(remembered.file)) {
                remembered.ports.load(reader);
            }
        }
        return remembered;
    }

    /** The port the stack last listened on for {@code optionKey}, if it remembered a valid one. */
    OptionalInt lastBound(String optionKey) {
        String value = ports.getProperty(optionKey);
        if (value == null) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(value.trim()));
        } catch (NumberFormatException e) {
            LOG.warn("Ignoring {}={} in {}: not a port", optionKey, value, file);
            return OptionalInt.empty();
        }
    }

    /** The port to bind for {@code optionKey}: the configured one, else the remembered one if free, else 0. */
    int portFor(String optionKey, int configured) {
        if (configured != 0) {
            return configured;
        }
        OptionalInt remembered = lastBound(optionKey);
        if (remembered.isEmpty()) {
            return 0;
        }
        int port = remembered.getAsInt();
        if (!LocalFlussCluster.isFree(port)) {
            LOG.warn("Port {} remembered for '{}' is taken now; picking another free port", port, optionKey);
            return 0;
        }
        return port;
    }

    /** Stores the ports the stack listens on, for the next start. */
    void remember(Map<String, Integer> bound) {
        bound.forEach((key, port) -> ports.setProperty(key, Integer.toString(port)));
        try (Writer writer = Files.newBufferedWriter(file)) {
            ports.store(writer, "Ports of the local stack, reused by the next start on this data folder");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }
}
