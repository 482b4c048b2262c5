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
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When each table's next maintenance pass is due, kept in a file of the instance's data folder. A table seen for
 * the first time is due one interval later, and that time survives restarts: an instance restarted more often
 * than the interval would otherwise put every table's first pass off at each start and never maintain it (its
 * primary-key buckets then pile up a level-0 file per round until a reader cannot open them all). A file that
 * cannot be read or written costs only that memory, with a warning.
 *
 * <p>The file is written by the given writer, never on the thread that records a time (a round's, when a table is
 * seen for the first time): records that come while a write waits are written with it, so a burst of new tables
 * costs one write, not one rewrite of the whole file each. A crash can lose the last records, which only moves
 * those tables' first passes to one interval after the restart.
 */
final class MaintenanceSchedule {

    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceSchedule.class);

    private final Path file;
    private final Clock clock;
    private final Executor writer;
    private final Properties due = new Properties();
    /** Held while a copy of {@link #due} is taken and written, so that a later copy is never overwritten by an older one. */
    private final Object fileLock = new Object();
    private boolean writePending;
    private boolean warned;

    MaintenanceSchedule(Path file, Clock clock, Executor writer) {
        this.file = file;
        this.clock = clock;
        this.writer = writer;
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

    /** Records when the table's next pass is due; the writer writes it to the file. */
    synchronized void record(long tableId, Instant nextPass) {
        due.setProperty(Long.toString(tableId), Long.toString(nextPass.toEpochMilli()));
        if (writePending) {
            return;
        }
        writePending = true;
        try {
            writer.execute(this::write);
        } catch (RejectedExecutionException stopping) {
            // Written by flush, at close.
        }
    }

    /** Writes what was recorded and is not in the file yet (at close, when the writer no longer runs). */
    void flush() {
        write();
    }

    private void write() {
        synchronized (fileLock) {
            Properties copy = new Properties();
            synchronized (this) {
                if (!writePending) {
                    return;
                }
                writePending = false;
                copy.putAll(due);
            }
            Path written = file.resolveSibling(file.getFileName() + ".tmp");
            try {
                Files.createDirectories(file.getParent());
                try (OutputStream out = Files.newOutputStream(written)) {
                    copy.store(out, "lakesync: when each table's next maintenance pass is due (epoch ms), by table id");
                }
                Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                warned = false;
            } catch (IOException e) {
                if (!warned) {
                    LOG.warn("Cannot write the maintenance schedule {} ({}); a restart puts the first passes off by "
                            + "one interval", file, e.toString());
                    warned = true;
                }
            }
        }
    }
}
