package io.lakesync.tiering.columnar.write;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.apache.fluss.lake.paimon.tiering.FlussRecordAsPaimonRow;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.record.LogRecord;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.sink.RowKeyExtractor;
import org.apache.paimon.utils.Pair;

/**
 * Where the records of each Fluss bucket of one table go in a columnar writer: one target per Paimon
 * (partition, bucket), as Paimon keeps one writer per pair. The partition is worked out once per Fluss bucket
 * from its first record (one Fluss bucket lies in one partition); a log table without bucket key is
 * bucket-unaware in Paimon, so all its Fluss buckets share Paimon bucket 0. Not thread-safe.
 */
final class BucketTargets<T> {

    private final FileStoreTable table;
    private final boolean bucketUnaware;
    private final BiFunction<BinaryRow, Integer, T> create;
    private final Map<Pair<BinaryRow, Integer>, T> byPaimonBucket = new HashMap<>();
    private final Map<TableBucket, T> byFlussBucket = new HashMap<>();
    private @Nullable TableBucket lastBucket;
    private @Nullable T lastTarget;

    /** {@code create}: a new target for a Paimon partition and bucket. */
    BucketTargets(FileStoreTable table, BiFunction<BinaryRow, Integer, T> create) {
        this.table = table;
        this.bucketUnaware = table.bucketMode() == BucketMode.BUCKET_UNAWARE;
        this.create = create;
    }

    /** The target of Fluss bucket {@code bucket}, whose record {@code record} is about to be written. */
    T of(TableBucket bucket, LogRecord record) {
        // Records come batch by batch: the last bucket's target spares a hash lookup (TableBucket hashes by boxing).
        if (bucket != lastBucket) {
            T target = byFlussBucket.get(bucket);
            if (target == null) {
                target = create(bucket, record);
                byFlussBucket.put(bucket, target);
            }
            lastBucket = bucket;
            lastTarget = target;
        }
        return lastTarget;
    }

    private T create(TableBucket bucket, LogRecord first) {
        FlussRecordAsPaimonRow row = new FlussRecordAsPaimonRow(bucket.getBucket(), table.rowType());
        row.setFlussRecord(first);
        RowKeyExtractor keys = table.createRowKeyExtractor();
        keys.setRecord(row);
        // Copied: the extractor reuses its partition row.
        BinaryRow partition = keys.partition().copy();
        int paimonBucket = bucketUnaware ? 0 : bucket.getBucket();
        return byPaimonBucket.computeIfAbsent(Pair.of(partition, paimonBucket), k -> create.apply(partition, paimonBucket));
    }

    /** Every target so far. */
    Collection<T> all() {
        return byPaimonBucket.values();
    }

    /** The commit message of one Paimon bucket's new level-0 data and changelog files. */
    CommitMessage newFiles(BinaryRow partition, int bucket, List<DataFileMeta> data, List<DataFileMeta> changelog) {
        return new CommitMessageImpl(
                partition,
                bucket,
                table.coreOptions().bucket(),
                new DataIncrement(new ArrayList<>(data), List.of(), new ArrayList<>(changelog)),
                new CompactIncrement(List.of(), List.of(), List.of()));
    }

    /** Runs {@code abort} on every target, then forgets them all. */
    void abortAll(Consumer<T> abort) {
        try {
            byPaimonBucket.values().forEach(abort);
        } finally {
            clear();
        }
    }

    private void clear() {
        byPaimonBucket.clear();
        byFlussBucket.clear();
        lastBucket = null;
        lastTarget = null;
    }
}
