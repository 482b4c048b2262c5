package io.lakesync.tiering.maintenance;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.utils.SnapshotManager;

/**
 * The shape of a lake table's newest snapshot: how many data files it reads, how big they are, and how many
 * are small files compaction would merge (a file below the table's target file size in a bucket that holds
 * more than one file), plus how many snapshots the table keeps.
 */
public record LakeFigures(long dataFiles, long dataBytes, long smallFiles, long snapshotsKept) {

    public static final LakeFigures NONE = new LakeFigures(0, 0, 0, 0);

    static LakeFigures of(FileStoreTable table) {
        SnapshotManager snapshots = table.snapshotManager();
        Long latest = snapshots.latestSnapshotId();
        if (latest == null) {
            return NONE;
        }
        Long earliest = snapshots.earliestSnapshotId();
        long kept = earliest == null ? 0 : latest - earliest + 1;
        List<ManifestEntry> files = table.store().newScan().withSnapshot(latest).plan().files();
        long target = table.coreOptions().targetFileSize(!table.primaryKeys().isEmpty());
        Map<BucketKey, Integer> perBucket = new HashMap<>();
        long bytes = 0;
        for (ManifestEntry entry : files) {
            perBucket.merge(BucketKey.of(entry), 1, Integer::sum);
            bytes += entry.file().fileSize();
        }
        long small = files.stream()
                .filter(e -> e.file().fileSize() < target && perBucket.get(BucketKey.of(e)) > 1)
                .count();
        return new LakeFigures(files.size(), bytes, small, kept);
    }

    /** Mean data file size in bytes, 0 without files. */
    public long averageFileBytes() {
        return dataFiles == 0 ? 0 : dataBytes / dataFiles;
    }

    /** Share of the data files that are small files compaction would merge, 0 without files. */
    public double smallFileRatio() {
        return dataFiles == 0 ? 0 : (double) smallFiles / dataFiles;
    }
}
