package io.lakesync.tiering;

import io.lakesync.fluss.tiering.TableEpoch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * The tables this instance holds from the coordinator, on disk. After a crash the restarted instance
 * reports them failed at once, so the coordinator hands them out again right away instead of after its
 * 2-minute heartbeat timeout.
 *
 * <p>The assigner writes at every hand-out, so changes are appended to the open file, one line each: a hold
 * {@code tableId tieringEpoch coordinatorEpoch}, a release {@code - tableId tieringEpoch}. Creating a file per
 * change cost a busy instance several per cent of its CPU. Once the appended lines outnumber the holds by far,
 * the file is rewritten with the holds alone; it is also rewritten when it is gone (its folder removed under a
 * running instance), so that no change goes to a file nobody can read.
 */
final class InFlightJournal implements AutoCloseable {

    /** Lines appended since the last rewrite before the file is rewritten, at least; more with many holds. */
    private static final int MIN_LINES_BEFORE_REWRITE = 256;
    private static final String RELEASE = "-";

    /** A held table and the coordinator epoch it was held under. */
    record Entry(TableEpoch table, int coordinatorEpoch) {}

    private final Path file;
    private final Map<Long, Entry> entries = new LinkedHashMap<>();
    /** Whether the journal's folder was made (once, not per write: the assigner writes at every hand-out). */
    private boolean folderMade;
    @Nullable private FileChannel appender;
    private int linesSinceRewrite;

    InFlightJournal(Path file) {
        this.file = file;
    }

    /** The holds a previous run of this instance left behind. */
    synchronized List<Entry> recover() throws IOException {
        Map<Long, Entry> held = new LinkedHashMap<>();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] parts = line.trim().split(" ");
                if (parts.length != 3) {
                    continue;
                }
                if (parts[0].equals(RELEASE)) {
                    TableEpoch released = new TableEpoch(Long.parseLong(parts[1]), Long.parseLong(parts[2]));
                    Entry entry = held.get(released.tableId());
                    if (entry != null && entry.table().equals(released)) {
                        held.remove(released.tableId());
                    }
                } else {
                    TableEpoch table = new TableEpoch(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
                    held.put(table.tableId(), new Entry(table, Integer.parseInt(parts[2])));
                }
            }
        }
        return new ArrayList<>(held.values());
    }

    /**
     * Forgets the tables released under those tiering epochs (a newer hold of the same table stays) and adds the
     * one just taken, if any: one write per heartbeat, however many tables it reported.
     */
    synchronized void update(Collection<TableEpoch> released, @Nullable TableEpoch taken, int coordinatorEpoch) {
        StringBuilder lines = new StringBuilder();
        int count = 0;
        for (TableEpoch table : released) {
            Entry entry = entries.get(table.tableId());
            if (entry != null && entry.table().equals(table)) {
                entries.remove(table.tableId());
                lines.append(RELEASE).append(' ').append(table.tableId()).append(' ').append(table.tieringEpoch())
                        .append('\n');
                count++;
            }
        }
        if (taken != null) {
            Entry entry = new Entry(taken, coordinatorEpoch);
            entries.put(taken.tableId(), entry);
            appendHold(lines, entry);
            count++;
        }
        if (count == 0) {
            return;
        }
        try {
            if (appender == null || !Files.exists(file)
                    || linesSinceRewrite + count > Math.max(MIN_LINES_BEFORE_REWRITE, 4 * entries.size())) {
                rewrite();
            } else {
                ByteBuffer bytes = ByteBuffer.wrap(lines.toString().getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    appender.write(bytes);
                }
                linesSinceRewrite += count;
            }
        } catch (IOException e) {
            throw failed(e);
        }
    }

    synchronized void clear() {
        entries.clear();
        try {
            rewrite();
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public synchronized void close() {
        closeAppender();
    }

    /** The file anew, with the holds alone, opened for appending. */
    private void rewrite() throws IOException {
        closeAppender();
        if (!folderMade) {
            Files.createDirectories(file.getParent());
            folderMade = true;
        }
        StringBuilder text = new StringBuilder();
        entries.values().forEach(entry -> appendHold(text, entry));
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        appender = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        linesSinceRewrite = 0;
    }

    private static void appendHold(StringBuilder lines, Entry entry) {
        lines.append(entry.table().tableId())
                .append(' ')
                .append(entry.table().tieringEpoch())
                .append(' ')
                .append(entry.coordinatorEpoch())
                .append('\n');
    }

    private UncheckedIOException failed(IOException e) {
        closeAppender();
        folderMade = false;
        return new UncheckedIOException("Cannot write the in-flight table journal " + file, e);
    }

    private void closeAppender() {
        if (appender != null) {
            try {
                appender.close();
            } catch (IOException e) {
                // Nothing was pending: every append wrote through to the file.
            }
            appender = null;
        }
    }
}
