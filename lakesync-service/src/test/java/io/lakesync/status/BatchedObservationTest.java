package io.lakesync.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.tiering.TieringTestBase;
import io.lakesync.fluss.BucketHeads;
import io.lakesync.fluss.Deadline;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.metadata.PartitionSpec;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A refresh's observation of many tables at once ({@link ClusterObserver#observeAll}, {@link BucketHeads}) against
 * the real cluster: end offsets and the append time of each table's oldest pending record as Fluss's own client reads
 * them, for small and big batches, partitions, idle and disabled tables, and a table that fails alone.
 */
class BatchedObservationTest extends TieringTestBase {

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(20);
    private static final TablePath MISSING = TablePath.of("fluss", "batched_never_created");

    private final ExecutorService pool = Executors.newFixedThreadPool(4);

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    @Test
    void manyTablesAreObservedTogetherAsFlussReadsThem() throws Exception {
        List<TablePath> pending = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            TablePath path = TablePath.of("fluss", "batched_" + i);
            createTable(path, idTable(2, "1min"));
            append(path, ids(0, 10 * (i + 1)));
            append(path, ids(100, 105));
            pending.add(path);
        }
        // One batch far bigger than a bucket's share of the shared fetch: read again on its own.
        TablePath big = TablePath.of("fluss", "batched_big");
        createTable(big, lakeTable(Schema.newBuilder()
                .column("id", DataTypes.BIGINT()).column("text", DataTypes.STRING()).build(), 1, "1min").build());
        append(big, wideRows(2_000));
        pending.add(big);
        TablePath partitioned = TablePath.of("fluss", "batched_days");
        createTable(partitioned, lakeTable(Schema.newBuilder()
                .column("id", DataTypes.BIGINT()).column("day", DataTypes.STRING()).build(), 2, "1min")
                .partitionedBy("day").build());
        for (String day : List.of("d1", "d2")) {
            admin.createPartition(partitioned, new PartitionSpec(Map.of("day", day)), false).get();
        }
        append(partitioned, List.of(GenericRow.of(1L, BinaryString.fromString("d1")),
                GenericRow.of(2L, BinaryString.fromString("d2"))));
        pending.add(partitioned);
        TablePath idle = TablePath.of("fluss", "batched_idle");
        createTable(idle, idTable(3, "1min"));
        TablePath off = TablePath.of("fluss", "batched_off");
        createTable(off, withoutLake());
        TablePath missing = MISSING;

        List<TablePath> tables = new ArrayList<>(pending);
        tables.addAll(List.of(idle, off, missing));
        ClusterObserver observer = new ClusterObserver(fluss, lake, Clock.systemUTC());
        Map<TablePath, TableObservation> observed = observeAll(observer, tables);

        for (TablePath path : pending) {
            TableObservation observation = observed.get(path);
            Map<TableBucket, Long> ends = endOffsets(path);
            assertThat(observation.enabled()).isTrue();
            assertThat(observation.lakeSnapshotId()).as("never tiered").isNull();
            assertThat(observation.buckets()).as(path.toString()).hasSize(ends.size())
                    .allSatisfy(b -> assertThat(b.tieredOffset()).isEqualTo(-1));
            assertThat(observation.pendingRecords()).as(path.toString())
                    .isEqualTo(ends.values().stream().mapToLong(Long::longValue).sum());
            assertThat(observation.oldestPendingRecordAt()).as(path.toString()).isEqualTo(firstRecordTime(path, ends));
        }
        assertThat(observed.get(partitioned).buckets()).extracting(BucketCheckpoint::partition)
                .containsOnly("d1", "d2");
        assertThat(observed.get(idle).pendingRecords()).isZero();
        assertThat(observed.get(idle).buckets()).hasSize(3);
        assertThat(observed.get(idle).oldestPendingRecordAt()).isNull();
        assertThat(observed.get(off).enabled()).isFalse();
        assertThat(observed).doesNotContainKey(missing);

        // Again, with the append times known: more records behind the same tiered offsets leave the oldest one.
        append(pending.get(0), ids(200, 250));
        Map<TablePath, TableObservation> again = observeAll(observer, tables);
        assertThat(again.get(pending.get(0)).pendingRecords())
                .isEqualTo(observed.get(pending.get(0)).pendingRecords() + 50);
        for (TablePath path : pending) {
            assertThat(again.get(path).oldestPendingRecordAt()).isEqualTo(observed.get(path).oldestPendingRecordAt());
        }

        // One table observed alone (what a single observation does) agrees with the refresh-wide one.
        TableObservation single = observer.observe(big, Deadline.in(CALL_TIMEOUT));
        assertThat(single.buckets()).isEqualTo(again.get(big).buckets());
        assertThat(single.oldestPendingRecordAt()).isEqualTo(again.get(big).oldestPendingRecordAt());
        assertThatThrownBy(() -> observer.observe(missing, Deadline.in(CALL_TIMEOUT)))
                .isInstanceOf(TableNotExistException.class);
    }

    @Test
    void bucketsThatCannotBeReadSayWhyAndLeaveTheOthers() throws Exception {
        TablePath path = TablePath.of("fluss", "heads");
        TableInfo info = createTable(path, idTable(1, "1min"));
        append(path, ids(0, 10));
        TableBucket bucket = new TableBucket(info.getTableId(), 0);
        TableBucket unknown = new TableBucket(info.getTableId(), 7);

        Map<TableBucket, BucketHeads.Head> heads = BucketHeads.read(connection, List.of(
                new BucketHeads.Ask(path, bucket, 3, true),
                new BucketHeads.Ask(path, unknown, 0, true)), Deadline.in(CALL_TIMEOUT));
        assertThat(heads.get(bucket).highWatermark()).isEqualTo(10);
        assertThat(heads.get(bucket).appendedAt()).isEqualTo(firstRecordTime(path, Map.of(bucket, 10L)).toEpochMilli());
        assertThat(heads.get(unknown).error()).contains("no leader of fluss.heads bucket 7");

        // An offset past the end of the log: not in the leader's log, so the observer reads that table another way.
        BucketHeads.Head beyond = BucketHeads.read(connection, List.of(new BucketHeads.Ask(path, bucket, 50, true)),
                Deadline.in(CALL_TIMEOUT)).get(bucket);
        assertThat(beyond).isEqualTo(new BucketHeads.Head(-1, null, null));
        // At the end: nothing to time.
        BucketHeads.Head atEnd = BucketHeads.read(connection, List.of(new BucketHeads.Ask(path, bucket, 10, true)),
                Deadline.in(CALL_TIMEOUT)).get(bucket);
        assertThat(atEnd).isEqualTo(new BucketHeads.Head(10, null, null));
    }

    private Map<TablePath, TableObservation> observeAll(ClusterObserver observer, List<TablePath> tables)
            throws InterruptedException {
        List<? extends Future<TableObservation>> futures = observer.observeAll(tables, Map.of(), CALL_TIMEOUT, pool);
        assertThat(futures).hasSize(tables.size());
        Map<TablePath, TableObservation> observed = new HashMap<>();
        for (int i = 0; i < tables.size(); i++) {
            try {
                observed.put(tables.get(i), futures.get(i).get());
            } catch (ExecutionException e) {
                assertThat(tables.get(i)).as("fails alone: %s", e.getCause()).isEqualTo(MISSING);
                assertThat(e.getCause()).isInstanceOf(TableNotExistException.class);
            }
        }
        return observed;
    }

    /** The append time of the first record of the table's buckets, the earliest of them, as a log scanner reads it. */
    private static Instant firstRecordTime(TablePath path, Map<TableBucket, Long> ends) throws Exception {
        Map<TableBucket, Long> first = new HashMap<>();
        try (Table table = connection.getTable(path); LogScanner scanner = table.newScan().createLogScanner()) {
            for (TableBucket bucket : ends.keySet()) {
                if (ends.get(bucket) == 0) {
                    continue;
                }
                if (bucket.getPartitionId() == null) {
                    scanner.subscribe(bucket.getBucket(), LogScanner.EARLIEST_OFFSET);
                } else {
                    scanner.subscribe(bucket.getPartitionId(), bucket.getBucket(), LogScanner.EARLIEST_OFFSET);
                }
            }
            long wanted = ends.values().stream().filter(o -> o > 0).count();
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (first.size() < wanted && System.nanoTime() < until) {
                ScanRecords records = scanner.poll(Duration.ofMillis(200));
                for (TableBucket bucket : records.buckets()) {
                    List<ScanRecord> found = records.records(bucket);
                    if (!found.isEmpty()) {
                        first.putIfAbsent(bucket, found.get(0).timestamp());
                    }
                }
            }
        }
        assertThat(first).as("first records of " + path).hasSize((int) ends.values().stream().filter(o -> o > 0).count());
        return Instant.ofEpochMilli(first.values().stream().mapToLong(Long::longValue).min().orElseThrow());
    }

    /** Rows of random text (which compression cannot shrink much), about 200 bytes each. */
    private static List<InternalRow> wideRows(int count) {
        Random random = new Random(42);
        List<InternalRow> rows = new ArrayList<>();
        for (long id = 0; id < count; id++) {
            StringBuilder text = new StringBuilder();
            while (text.length() < 200) {
                text.append(Long.toHexString(random.nextLong()));
            }
            rows.add(GenericRow.of(id, BinaryString.fromString(text.toString())));
        }
        return rows;
    }

    private static TableDescriptor withoutLake() {
        return TableDescriptor.builder()
                .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
                .distributedBy(1)
                .build();
    }
}
