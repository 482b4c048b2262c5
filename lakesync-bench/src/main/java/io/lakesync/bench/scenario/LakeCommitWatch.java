package io.lakesync.bench.scenario;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.fluss.metadata.TablePath;

/**
 * Which tables have had a Paimon commit since the watch began, told from the warehouse alone: a commit writes
 * into the table's {@code snapshot} folder, which changes the folder's modification time (or makes the folder).
 * The wait for a backfill reads the registered lake snapshot only of such tables, so that the driver does not
 * load the cluster it measures: asking the coordinator about all 200 tables of many-tables twice a second took
 * about a third of the cluster's CPU in a contender's timed window, four ZooKeeper reads per question, and
 * queued the contender's own commits behind the questions.
 *
 * <p>A table without a known folder (its lake table could not be resolved) counts as committed from the start,
 * which is the wait's behaviour before this watch. Once a table has changed it stays changed.
 */
final class LakeCommitWatch {

    private final Map<TablePath, Path> snapshotFolders;
    private final Map<TablePath, Optional<FileTime>> atStart = new HashMap<>();
    private final Set<TablePath> changed = new HashSet<>();

    private LakeCommitWatch(Map<TablePath, Path> snapshotFolders) {
        this.snapshotFolders = snapshotFolders;
        snapshotFolders.forEach((table, folder) -> atStart.put(table, modified(folder)));
    }

    /** Starts watching; must be called before any contender can commit to these tables. */
    static LakeCommitWatch start(Map<TablePath, Path> snapshotFolders) {
        return new LakeCommitWatch(Map.copyOf(snapshotFolders));
    }

    /** True once the table's snapshot folder differs from what it was at the start. */
    boolean committedSinceStart(TablePath table) {
        if (changed.contains(table)) {
            return true;
        }
        Path folder = snapshotFolders.get(table);
        if (folder == null || !modified(folder).equals(atStart.get(table))) {
            changed.add(table);
            return true;
        }
        return false;
    }

    private static Optional<FileTime> modified(Path folder) {
        try {
            return Optional.of(Files.getLastModifiedTime(folder));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the modification time of " + folder, e);
        }
    }
}
