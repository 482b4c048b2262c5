package io.lakesync.tiering.maintenance;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When each table's next maintenance pass is due, kept in a file of the instance's data folder. A table seen for
 * the first time is due one interval later, and that time survives restarts: an instance restarted more often
 * than the interval would otherwise put every table's first pass off at each start and never maintain it (its
 * primary-key buckets then pile up a level-0 file per round until a reader cannot open them all). A file that
 * cannot be read or written costs only that memory, with a warning.
 */
final class MaintenanceSchedule {

    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceSchedule.class);

    private final Path file;
    private final Clock clock;
    private final Properties due = new Properties();
    private boolean warned;

    MaintenanceSchedule(Path file, Clock clock) {
        this.file = file;
        this.clock = clock;
        if (Files.exists(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                due.load(in);
            } catch (IOException | IllegalArgumentException e) {
                LOG.warn("Cannot read the maintenance schedule {} ({}); every table's first pass comes one interval "
                        + "from now", file, e.toString());
                due.clear();
            }
        }
    }

    /** When the table's next pass is due: as recorded, or {@code interval} from now for a table not seen before. */
    synchronized Instant nextPass(long tableId, Duration interval) {
        String recorded = due.getProperty(Long.toString(tableId));
        if (recorded != null) {
            try {
                return Instant.ofEpochMilli(Long.parseLong(recorded));
            } catch (NumberFormatException e) {
                // Written by hand: scheduled afresh below.
            }
        }
        Instant first = clock.instant().plus(interval);
        record(tableId, first);
        return first;
    }

    /** Records when the table's next pass is due. */
    synchronized void record(long tableId, Instant nextPass) {
        due.setProperty(Long.toString(tableId), Long.toString(nextPass.toEpochMilli()));
        Path written = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.createDirectories(file.getParent());
            try (OutputStream out = Files.newOutputStream(written)) {
                due.store(out, "lakesync: when each table's next maintenance pass is due (epoch ms), by table id");
            }
            Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            warned = false;
        } catch (IOException e) {
            if (!warned) {
                LOG.warn("Cannot write the maintenance schedule {} ({}); a restart puts the first passes off by one "
                        + "interval", file, e.toString());
                warned = true;
            }
        }
    }
}
