package io.lakesync.tiering;

import io.lakesync.fluss.tiering.TableEpoch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * The tables this instance holds from the coordinator, on disk. After a crash the restarted instance
 * reports them failed at once, so the coordinator hands them out again right away instead of after its
 * 2-minute heartbeat timeout. Each line: {@code tableId tieringEpoch coordinatorEpoch}.
 */
final class InFlightJournal {

    /** A held table and the coordinator epoch it was held under. */
    record Entry(TableEpoch table, int coordinatorEpoch) {}

    private final Path file;
    private final Map<Long, Entry> entries = new LinkedHashMap<>();
    /** Whether the journal's folder was made (once, not per write: the assigner writes at every hand-out). */
    private boolean folderMade;

    InFlightJournal(Path file) {
        this.file = file;
    }

    /** The entries a previous run of this instance left behind. */
    synchronized List<Entry> recover() throws IOException {
        List<Entry> recovered = new ArrayList<>();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] parts = line.trim().split(" ");
                if (parts.length == 3) {
                    recovered.add(
                            new Entry(
                                    new TableEpoch(Long.parseLong(parts[0]), Long.parseLong(parts[1])),
                                    Integer.parseInt(parts[2])));
                }
            }
        }
        return recovered;
    }

    /**
     * Forgets the tables released under those tiering epochs (a newer hold of the same table stays) and adds the
     * one just taken, if any: one write per heartbeat, however many tables it reported.
     */
    synchronized void update(Collection<TableEpoch> released, @Nullable TableEpoch taken, int coordinatorEpoch) {
        boolean changed = false;
        for (TableEpoch table : released) {
            Entry entry = entries.get(table.tableId());
            if (entry != null && entry.table().equals(table)) {
                entries.remove(table.tableId());
                changed = true;
            }
        }
        if (taken != null) {
            entries.put(taken.tableId(), new Entry(taken, coordinatorEpoch));
            changed = true;
        }
        if (changed) {
            persist();
        }
    }

    synchronized void clear() {
        entries.clear();
        persist();
    }

    private void persist() {
        StringBuilder text = new StringBuilder();
        for (Entry entry : entries.values()) {
            text.append(entry.table().tableId())
                    .append(' ')
                    .append(entry.table().tieringEpoch())
                    .append(' ')
                    .append(entry.coordinatorEpoch())
                    .append('\n');
        }
        try {
            if (!folderMade) {
                Files.createDirectories(file.getParent());
                folderMade = true;
            }
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            folderMade = false;
            throw new UncheckedIOException("Cannot write the in-flight table journal " + file, e);
        }
    }
}
