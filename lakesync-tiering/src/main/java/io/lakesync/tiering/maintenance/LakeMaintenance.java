package io.lakesync.tiering.maintenance;

import io.lakesync.tiering.lake.LakeReadability;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.append.AppendCompactCoordinator;
import org.apache.paimon.append.AppendCompactTask;
import org.apache.paimon.consumer.Consumer;
import org.apache.paimon.consumer.ConsumerManager;
import org.apache.paimon.deletionvectors.DeletionVectorsIndexFile;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.fs.FileStatus;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.operation.BaseAppendFileStoreWrite;
import org.apache.paimon.operation.CleanOrphanFilesResult;
import org.apache.paimon.operation.LocalOrphanFilesClean;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.TableCommitImpl;
import org.apache.paimon.table.sink.TableWriteImpl;

/**
 * One maintenance pass over one lake table: compaction, snapshot expiry, orphan cleanup, in that order.
 *
 * <p>Compaction commits as {@value #COMMIT_USER}, never as Fluss tiering: the tiering fence, the
 * missing-snapshot repair and Fluss's own committer look for the newest snapshot of commit user
 * {@code __fluss_lake_tiering} and skip this one, so they keep finding the newest {@code fluss-offsets}; a
 * union read reads the snapshot the coordinator registered, which compaction does not change. A compaction
 * only adds and removes files of buckets it read, while a tiering round only adds files, so Paimon's conflict
 * check lets a round's commit land whatever compaction did meanwhile; a compaction that loses a conflict
 * (another instance compacted first) fails alone, and the files it wrote are orphans the next cleanup removes.
 *
 * <p>Deletion-vector primary-key tables (passed between their rounds, never beside one): a bucket with a
 * level-0 file (left by a round whose compaction did not land) is compacted at once, as readers do not see it,
 * and a full compaction also takes every bucket with deletion vectors, so deleted rows physically go.
 *
 * <p>Expiry never removes the snapshot the coordinator holds as the table's lake snapshot, nor a newer one: that
 * snapshot is pinned as a Paimon consumer ({@value #PIN_CONSUMER}) before expiring, which also holds Paimon's
 * own expiry (when {@code table.datalake.auto-expire-snapshot} is on) off it.
 */
final class LakeMaintenance {

    static final String COMMIT_USER = "__lakesync_maintenance";
    static final String PIN_CONSUMER = "lakesync-lake-snapshot";

    private final FileStoreTable table;
    private final MaintenanceOptions options;
    private final Path ioTmpDir;
    private final Clock clock;

    LakeMaintenance(FileStoreTable table, MaintenanceOptions options, Path ioTmpDir, Clock clock) {
        this.table = table;
        this.options = options;
        this.ioTmpDir = ioTmpDir;
        this.clock = clock;
    }

    /** What one pass did. */
    record Outcome(int compactedBuckets, int expiredSnapshots, long orphanFilesDeleted, long bytesReclaimed) {}

    /**
     * Runs the pass. {@code lakeSnapshot} is the coordinator's lake snapshot of the table (empty: none is
     * registered, then nothing expires); {@code fullCompaction} asks for every bucket of a primary-key table
     * with more than one file or deleted rows to be compacted fully.
     */
    Outcome run(OptionalLong lakeSnapshot, boolean fullCompaction) throws Exception {
        Map<String, Long> before = files();
        int compacted = compact(fullCompaction);
        int expired = lakeSnapshot.isPresent() ? expire(lakeSnapshot.getAsLong()) : 0;
        long orphans = cleanOrphans();
        Map<String, Long> after = files();
        long reclaimed = 0;
        for (Map.Entry<String, Long> file : before.entrySet()) {
            if (!after.containsKey(file.getKey())) {
                reclaimed += file.getValue();
            }
        }
        return new Outcome(compacted, expired, orphans, reclaimed);
    }

    private int compact(boolean fullCompaction) throws Exception {
        FileStoreTable compacting = compacting();
        List<CommitMessage> messages = new ArrayList<>();
        int buckets;
        if (compacting.bucketMode() == BucketMode.BUCKET_UNAWARE) {
            buckets = compactUnawareAppend(compacting, messages);
        } else {
            buckets = compactBuckets(compacting, fullCompaction, messages);
        }
        commit(messages);
        return buckets;
    }

    /** What {@link #boundSortedRuns} did: the buckets it compacted, and the most sorted runs any bucket has now. */
    record RunBound(int compactedBuckets, int mostSortedRuns) {}

    /**
     * Keeps a primary-key table readable: every reader merges all sorted runs of a bucket at once, one open file
     * each (an object store's connection pool runs dry on a few hundred), and each round adds a run to every
     * bucket it wrote. Buckets with at least Paimon's {@code num-sorted-run.stop-trigger} runs (8 by default) are
     * compacted the way Paimon's own writer does it (universal compaction: the small new runs merge, the big
     * old ones stay), not fully. Not for deletion-vector tables, whose rounds compact them.
     */
    RunBound boundSortedRuns() throws Exception {
        FileStoreTable compacting = compacting();
        Long latest = compacting.snapshotManager().latestSnapshotId();
        if (latest == null) {
            return new RunBound(0, 0);
        }
        CoreOptions paimon = compacting.coreOptions();
        List<BucketKey> due = new ArrayList<>();
        int most = 0;
        for (Map.Entry<BucketKey, List<DataFileMeta>> bucket : bucketFiles(compacting, latest).entrySet()) {
            int runs = sortedRuns(bucket.getValue());
            if (runs >= paimon.numSortedRunStopTrigger()) {
                due.add(bucket.getKey());
                // Universal compaction leaves at most the trigger's number of runs.
                runs = Math.min(runs, paimon.numSortedRunCompactionTrigger());
            }
            most = Math.max(most, runs);
        }
        if (!due.isEmpty()) {
            commit(compactEach(compacting, due, false));
        }
        return new RunBound(due.size(), most);
    }

    /** Level-0 files are a sorted run each; every higher level is one. */
    static int sortedRuns(List<DataFileMeta> files) {
        Set<Integer> levels = new HashSet<>();
        int runs = 0;
        for (DataFileMeta file : files) {
            if (file.level() == 0) {
                runs++;
            } else if (levels.add(file.level())) {
                runs++;
            }
        }
        return runs;
    }

    private FileStoreTable compacting() {
        return table.copy(Map.of(
                CoreOptions.WRITE_ONLY.key(), "false",
                CoreOptions.COMPACTION_MIN_FILE_NUM.key(), Integer.toString(options.compactionMinFiles())));
    }

    private void commit(List<CommitMessage> messages) throws Exception {
        if (messages.isEmpty()) {
            return;
        }
        try (TableCommitImpl commit = commitTable().newCommit(COMMIT_USER)) {
            commit.commit(messages);
        }
    }

    /** Log tables without a bucket key: Paimon's coordinator bins small files of each partition. */
    private static int compactUnawareAppend(FileStoreTable compacting, List<CommitMessage> messages) throws Exception {
        List<AppendCompactTask> tasks = new AppendCompactCoordinator(compacting, false).run();
        if (tasks.isEmpty()) {
            return 0;
        }
        BaseAppendFileStoreWrite write = (BaseAppendFileStoreWrite) compacting.store().newWrite(COMMIT_USER);
        try {
            for (AppendCompactTask task : tasks) {
                messages.add(task.doCompact(compacting, write));
            }
        } finally {
            write.close();
        }
        return tasks.size();
    }

    /** Primary-key tables and bucketed log tables: each bucket's files through the bucket's own compaction. */
    private int compactBuckets(FileStoreTable compacting, boolean fullCompaction, List<CommitMessage> messages)
            throws Exception {
        Long latest = compacting.snapshotManager().latestSnapshotId();
        if (latest == null) {
            return 0;
        }
        Map<BucketKey, List<DataFileMeta>> files = bucketFiles(compacting, latest);
        boolean primaryKey = !compacting.primaryKeys().isEmpty();
        boolean deletionVectors = LakeReadability.compactsInRound(compacting);
        Set<BucketKey> withDeletionVectors =
                deletionVectors ? bucketsWithDeletedRows(compacting, latest, files) : Set.of();
        List<BucketKey> due = files.entrySet().stream()
                .filter(e -> e.getValue().size() >= options.compactionMinFiles()
                        || (deletionVectors && hasLevel0(e.getValue()))
                        || (primaryKey && fullCompaction && (e.getValue().size() > 1 || hasDeletes(e.getValue())
                                || withDeletionVectors.contains(e.getKey()))))
                .map(Map.Entry::getKey)
                .toList();
        if (due.isEmpty()) {
            return 0;
        }
        messages.addAll(compactEach(compacting, due, true));
        return due.size();
    }

    private static Map<BucketKey, List<DataFileMeta>> bucketFiles(FileStoreTable table, long snapshotId) {
        Map<BucketKey, List<DataFileMeta>> files = new HashMap<>();
        for (ManifestEntry entry : table.store().newScan().withSnapshot(snapshotId).plan().files()) {
            files.computeIfAbsent(BucketKey.of(entry), k -> new ArrayList<>()).add(entry.file());
        }
        return files;
    }

    private List<CommitMessage> compactEach(FileStoreTable compacting, List<BucketKey> buckets, boolean full)
            throws Exception {
        try (IOManager io = IOManager.create(ioTmpDir.toString());
                TableWriteImpl<?> write = compacting.newWrite(COMMIT_USER).withIOManager(io)) {
            for (BucketKey bucket : buckets) {
                write.compact(bucket.partition(), bucket.bucket(), full);
            }
            return write.prepareCommit(true, 0);
        }
    }

    private static boolean hasDeletes(List<DataFileMeta> files) {
        return files.stream().anyMatch(f -> f.deleteRowCount().orElse(0L) > 0);
    }

    /** Level-0 files of a deletion-vector table are invisible to readers until compacted (a round's lost compaction). */
    private static boolean hasLevel0(List<DataFileMeta> files) {
        return files.stream().anyMatch(f -> f.level() == 0);
    }

    /**
     * Buckets with a data file whose rows are partly deleted by a deletion vector: a full compaction drops those
     * rows physically. (Deletion vectors of files compacted away may stay in the index; they delete nothing.)
     */
    private static Set<BucketKey> bucketsWithDeletedRows(
            FileStoreTable table, long snapshotId, Map<BucketKey, List<DataFileMeta>> files) {
        Set<BucketKey> buckets = new HashSet<>();
        for (IndexManifestEntry entry : table.store().newIndexFileHandler()
                .scan(table.snapshotManager().snapshot(snapshotId), DeletionVectorsIndexFile.DELETION_VECTORS_INDEX)) {
            BucketKey bucket = new BucketKey(entry.partition(), entry.bucket());
            Set<String> deleting = entry.indexFile().dvRanges() == null ? Set.of() : entry.indexFile().dvRanges().keySet();
            if (files.getOrDefault(bucket, List.of()).stream().anyMatch(f -> deleting.contains(f.fileName()))) {
                buckets.add(bucket);
            }
        }
        return buckets;
    }

    private int expire(long lakeSnapshot) {
        new ConsumerManager(table.fileIO(), table.location()).resetConsumer(PIN_CONSUMER, new Consumer(lakeSnapshot));
        ExpireConfig config = ExpireConfig.builder()
                .snapshotRetainMin(options.snapshotNumRetainedMin())
                .snapshotRetainMax(Integer.MAX_VALUE)
                .snapshotTimeRetain(options.snapshotTimeRetained())
                .build();
        return commitTable().newExpireSnapshots().config(config).expire();
    }

    private long cleanOrphans() throws Exception {
        long olderThan = clock.millis() - options.orphanOlderThan().toMillis();
        CleanOrphanFilesResult result = new LocalOrphanFilesClean(table, olderThan, false).clean();
        return result.getDeletedFileCount();
    }

    private FileStoreTable commitTable() {
        return table.copy(Map.of(CoreOptions.WRITE_ONLY.key(), "true"));
    }

    /** Every file under the table's folder with its size, to tell what a pass deleted. */
    private Map<String, Long> files() throws IOException {
        Map<String, Long> sizes = new HashMap<>();
        for (FileStatus status : table.fileIO().listFiles(table.location(), true)) {
            sizes.put(status.getPath().toString(), status.getLen());
        }
        return sizes;
    }
}
