package io.lakesync.verify;

import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.LogRows;
import io.lakesync.fluss.TableReads;
import io.lakesync.tiering.lake.LakeTables;
import io.lakesync.tiering.lake.TieringSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.lake.paimon.source.FlussRowAsPaimonRow;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.LogRecord;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.SnapshotManager;

/**
 * Audits a lake table against its Fluss table at the lake snapshot Fluss registered last: both sides are pinned
 * there (the Paimon read time-travels to that snapshot), so tiering may go on meanwhile.
 *
 * <ul>
 *   <li><b>Log tables:</b> per bucket, the lake's {@code __offset}s are unique, contiguous, below the lake
 *       offset, and start no later than Fluss's log start (a record Fluss still holds must be in the lake).
 *   <li><b>Primary-key tables:</b> the lake's merged rows equal Fluss's state at the lake offsets. That state is
 *       rebuilt per bucket by replaying Fluss's changelog up to the lake offset, from offset 0 while Fluss still
 *       holds it, else from the bucket's latest KV snapshot when that is not past the lake offset. A union read
 *       could not serve here: it merges Fluss's rows over the lake's, so it hides exactly what a lake row lacks.
 * </ul>
 */
public final class TableVerifier {

    /** How many differences of a primary-key table are spelled out; the rest are counted. */
    static final int MAX_DIFFERENCES = 10;

    private static final Set<String> SYSTEM_COLUMNS = Set.of("__bucket", "__offset", "__timestamp");
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration PIN_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration PIN_RETRY = Duration.ofMillis(200);
    /** A changelog read that delivers nothing for this long is complete (its range ends in empty batches). */
    private static final Duration IDLE_END = Duration.ofSeconds(10);

    private final FlussClient fluss;
    private final LakeTables lake;

    public TableVerifier(FlussClient fluss, LakeTables lake) {
        this.fluss = fluss;
        this.lake = lake;
    }

    /** Every table with {@code table.datalake.enabled = true}, database by database. */
    public List<TablePath> lakeEnabledTables() throws Exception {
        List<TablePath> tables = new ArrayList<>();
        for (TablePath path : fluss.allTables().get()) {
            if (fluss.tableInfo(path).get().getTableConfig().isDataLakeEnabled()) {
                tables.add(path);
            }
        }
        tables.sort(java.util.Comparator.comparing(TablePath::toString));
        return tables;
    }

    /** The id of the lake snapshot Fluss registered last for the table, -1 when nothing was tiered yet. */
    public long registeredLakeSnapshot(TablePath path) throws Exception {
        return registered(path).map(LakeSnapshot::getSnapshotId).orElse(-1L);
    }

    /** Records Fluss holds beyond the offsets of the table's last registered lake snapshot. */
    public long pendingRecords(TablePath path) throws Exception {
        TableInfo info = fluss.tableInfo(path).get();
        Map<TableBucket, Long> lakeOffsets =
                registered(path).map(LakeSnapshot::getTableBucketsOffset).orElse(Map.of());
        Buckets buckets = buckets(path, info);
        long pending = 0;
        for (Map.Entry<TableBucket, Long> end : buckets.endOffsets.entrySet()) {
            pending += Math.max(0, end.getValue() - Math.max(0, lakeOffsets.getOrDefault(end.getKey(), 0L)));
        }
        return pending;
    }

    private Optional<LakeSnapshot> registered(TablePath path) throws Exception {
        try {
            return Optional.of(fluss.latestLakeSnapshot(path).get());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LakeTableSnapshotNotExistException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    public TableReport verify(TablePath path) throws Exception {
        TableInfo info = fluss.tableInfo(path).get();
        String kind = (info.hasPrimaryKey() ? "primary key" : "log") + (info.isPartitioned() ? ", partitioned" : "");
        Pinned pinned = pin(path);
        if (pinned.flussSnapshot == null) {
            return new TableReport(path.toString(), kind, -1, List.of(), List.of(), "nothing tiered yet");
        }
        if (pinned.mismatch != null) {
            return new TableReport(path.toString(), kind, pinned.flussSnapshot.getSnapshotId(), List.of(),
                    List.of(pinned.mismatch), "the lake and Fluss disagree on the last tiering snapshot");
        }
        LakeSnapshot snapshot = pinned.flussSnapshot;
        Buckets buckets = buckets(path, info);
        FileStoreTable lakeTable =
                lake.load(path).copy(Map.of("scan.snapshot-id", String.valueOf(pinned.lakeSnapshotId)));
        return info.hasPrimaryKey()
                ? verifyPrimaryKey(path, info, kind, snapshot, buckets, lakeTable)
                : verifyLog(path, kind, snapshot, buckets, lakeTable);
    }

    /**
     * Pins both sides: Paimon's newest snapshot (what lake readers see, changes made outside tiering included),
     * provided its newest tiering snapshot is the one Fluss registered last, whose offsets it then stands for. A
     * round between its Paimon and its Fluss commit is waited out, up to {@link #PIN_TIMEOUT}.
     */
    private Pinned pin(TablePath path) throws Exception {
        long deadline = System.nanoTime() + PIN_TIMEOUT.toNanos();
        while (true) {
            Optional<LakeSnapshot> maybeRegistered = registered(path);
            if (maybeRegistered.isEmpty()) {
                return new Pinned(null, -1, null);
            }
            LakeSnapshot registered = maybeRegistered.get();
            SnapshotManager snapshots = lake.load(path).snapshotManager();
            Long latest = snapshots.latestSnapshotId();
            long tiering = newestTieringSnapshot(snapshots, latest);
            if (tiering == registered.getSnapshotId()) {
                return new Pinned(registered, latest, null);
            }
            if (System.nanoTime() > deadline) {
                return new Pinned(registered, -1, String.format(
                        "Fluss registered lake snapshot %d, but the lake's newest tiering snapshot is %s: a round is "
                                + "stuck between its two commits, or the lake table was changed outside tiering",
                        registered.getSnapshotId(), tiering < 0 ? "none" : String.valueOf(tiering)));
            }
            Thread.sleep(PIN_RETRY.toMillis());
        }
    }

    private static long newestTieringSnapshot(SnapshotManager snapshots, Long latest) {
        Long earliest = snapshots.earliestSnapshotId();
        if (latest == null || earliest == null) {
            return -1;
        }
        for (long id = latest; id >= earliest; id--) {
            if (snapshots.snapshotExists(id) && TieringSnapshot.of(snapshots.snapshot(id)).isPresent()) {
                return id;
            }
        }
        return -1;
    }

    /** The Fluss lake snapshot verified against and the Paimon snapshot read; or why they do not match. */
    private record Pinned(LakeSnapshot flussSnapshot, long lakeSnapshotId, String mismatch) {}

    private TableReport verifyLog(
            TablePath path, String kind, LakeSnapshot snapshot, Buckets buckets, FileStoreTable lakeTable)
            throws Exception {
        Map<String, LakeOffsets> offsets = new LinkedHashMap<>();
        buckets.labels.keySet().forEach(label -> offsets.put(label, new LakeOffsets()));
        List<String> columns = new ArrayList<>(lakeTable.partitionKeys());
        columns.add("__bucket");
        columns.add("__offset");
        int partitionFields = lakeTable.partitionKeys().size();
        long[] rows = {0};
        forEachLakeRow(lakeTable, columns, row -> {
            String label = label(partitionName(row, partitionFields), row.getInt(partitionFields));
            offsets.computeIfAbsent(label, l -> new LakeOffsets()).add(row.getLong(partitionFields + 1));
            rows[0]++;
        });
        List<BucketReport> reports = new ArrayList<>();
        offsets.forEach((label, lakeOffsets) -> {
            TableBucket bucket = buckets.labels.get(label);
            long lakeOffset = bucket == null ? -1 : snapshot.getTableBucketsOffset().getOrDefault(bucket, -1L);
            long start = bucket == null ? 0 : buckets.startOffsets.getOrDefault(bucket, 0L);
            List<String> problems = bucket == null
                    ? List.of("lake rows of a bucket or partition Fluss does not have (any more)")
                    : lakeOffsets.problems(lakeOffset, start);
            reports.add(new BucketReport(label, lakeOffset, bucket == null ? 0 : buckets.endOffsets.get(bucket),
                    lakeOffsets.size(), problems));
        });
        return new TableReport(path.toString(), kind, snapshot.getSnapshotId(), reports, List.of(),
                String.format("%,d rows, each offset once and contiguous up to the lake offsets", rows[0]));
    }

    private TableReport verifyPrimaryKey(
            TablePath path, TableInfo info, String kind, LakeSnapshot snapshot, Buckets buckets,
            FileStoreTable lakeTable)
            throws Exception {
        RowType userType = userRowType(lakeTable.rowType());
        List<String> userColumns = userType.getFieldNames();
        int[] keyIndexes = info.getPrimaryKeys().stream().mapToInt(userColumns::indexOf).toArray();
        List<String> differences = new ArrayList<>();
        Map<List<Object>, List<Object>> lakeRows = new HashMap<>();
        Map<String, Long> lakeRowsPerBucket = new HashMap<>();
        List<String> columns = new ArrayList<>(userColumns);
        columns.add("__bucket");
        int partitionFields = lakeTable.partitionKeys().size();
        List<Integer> partitionIndexes = lakeTable.partitionKeys().stream().map(userColumns::indexOf).toList();
        forEachLakeRow(lakeTable, columns, row -> {
            List<Object> values = values(row, userType);
            if (lakeRows.put(key(values, keyIndexes), values) != null) {
                differences.add("key " + key(values, keyIndexes) + " read twice from the lake");
            }
            String partition = partitionFields == 0 ? null : partitionIndexes.stream()
                    .map(i -> String.valueOf(values.get(i)))
                    .collect(Collectors.joining("$"));
            lakeRowsPerBucket.merge(label(partition, row.getInt(userColumns.size())), 1L, Long::sum);
        });

        Map<List<Object>, List<Object>> flussRows = new HashMap<>();
        List<BucketReport> reports = new ArrayList<>();
        try (TableReads table = fluss.reads(path)) {
            Map<TableBucket, Long> replayFrom = new HashMap<>();
            for (Map.Entry<String, TableBucket> entry : buckets.labels.entrySet()) {
                TableBucket bucket = entry.getValue();
                long lakeOffset = snapshot.getTableBucketsOffset().getOrDefault(bucket, -1L);
                long start = buckets.startOffsets.getOrDefault(bucket, 0L);
                List<String> problems = new ArrayList<>();
                if (lakeOffset > 0) {
                    if (start == 0) {
                        replayFrom.put(bucket, 0L);
                    } else {
                        loadKvSnapshot(path, table, bucket, buckets, lakeOffset, userType, keyIndexes, flussRows,
                                replayFrom, problems);
                    }
                }
                reports.add(new BucketReport(entry.getKey(), lakeOffset, buckets.endOffsets.get(bucket),
                        lakeRowsPerBucket.getOrDefault(entry.getKey(), 0L), problems));
            }
            replayChangelog(table, replayFrom, snapshot.getTableBucketsOffset(), userType, keyIndexes, flussRows);
        }
        compare(flussRows, lakeRows, keyIndexes, differences);
        return new TableReport(path.toString(), kind, snapshot.getSnapshotId(), reports, differences,
                String.format("%,d keys in the lake, %,d in Fluss's state at the lake offsets", lakeRows.size(),
                        flussRows.size()));
    }

    /**
     * Starts a bucket whose changelog head Fluss cleaned up from its latest KV snapshot, when that snapshot is not
     * past the lake offset; otherwise says why the bucket cannot be checked now.
     */
    private void loadKvSnapshot(
            TablePath path, TableReads table, TableBucket bucket, Buckets buckets, long lakeOffset, RowType userType,
            int[] keyIndexes, Map<List<Object>, List<Object>> state, Map<TableBucket, Long> replayFrom,
            List<String> problems)
            throws Exception {
        String partition = bucket.getPartitionId() == null ? null : buckets.partitionNames.get(bucket.getPartitionId());
        KvSnapshots snapshots = fluss.latestKvSnapshots(path, partition).get();
        OptionalLong snapshotId = snapshots.getSnapshotId(bucket.getBucket());
        OptionalLong snapshotOffset = snapshots.getLogOffset(bucket.getBucket());
        if (snapshotId.isEmpty() || snapshotOffset.getAsLong() > lakeOffset) {
            problems.add(String.format(
                    "cannot rebuild Fluss's state at lake offset %d: its changelog starts at %d and its KV snapshot "
                            + "is %s; run verify again after the next lake commit",
                    lakeOffset, buckets.startOffsets.get(bucket),
                    snapshotId.isEmpty() ? "missing" : "at offset " + snapshotOffset.getAsLong()));
            return;
        }
        table.readKvSnapshot(bucket, snapshotId.getAsLong(), record -> {
            List<Object> values = values(new FlussRowAsPaimonRow(record.getRow(), userType), userType);
            state.put(key(values, keyIndexes), values);
        }, () -> { });
        replayFrom.put(bucket, snapshotOffset.getAsLong());
    }

    /** Applies each bucket's changelog from its start to its lake offset (exclusive) to {@code state}. */
    private static void replayChangelog(
            TableReads table, Map<TableBucket, Long> replayFrom, Map<TableBucket, Long> lakeOffsets, RowType userType,
            int[] keyIndexes, Map<List<Object>, List<Object>> state)
            throws Exception {
        Map<TableBucket, Long> open = new HashMap<>();
        replayFrom.forEach((bucket, from) -> {
            if (from < lakeOffsets.get(bucket)) {
                open.put(bucket, lakeOffsets.get(bucket));
            }
        });
        if (open.isEmpty()) {
            return;
        }
        try (LogRows log = table.openLog()) {
            open.keySet().forEach(bucket -> log.subscribe(bucket, replayFrom.get(bucket)));
            long idleSince = System.nanoTime();
            while (!open.isEmpty() && System.nanoTime() - idleSince < IDLE_END.toNanos()) {
                Map<TableBucket, List<? extends LogRecord>> records = log.poll(POLL);
                if (!records.isEmpty()) {
                    idleSince = System.nanoTime();
                }
                for (Map.Entry<TableBucket, List<? extends LogRecord>> bucket : records.entrySet()) {
                    Long end = open.get(bucket.getKey());
                    if (end == null) {
                        continue;
                    }
                    List<? extends LogRecord> bucketRecords = bucket.getValue();
                    for (LogRecord record : bucketRecords) {
                        if (record.logOffset() >= end) {
                            break;
                        }
                        apply(record, userType, keyIndexes, state);
                    }
                    if (bucketRecords.get(bucketRecords.size() - 1).logOffset() >= end - 1) {
                        open.remove(bucket.getKey());
                        log.unsubscribe(bucket.getKey());
                    }
                }
            }
        }
    }

    private static void apply(
            LogRecord record, RowType userType, int[] keyIndexes,
            Map<List<Object>, List<Object>> state) {
        ChangeType change = record.getChangeType();
        if (change == ChangeType.UPDATE_BEFORE) {
            return;
        }
        List<Object> values = values(new FlussRowAsPaimonRow(record.getRow(), userType), userType);
        if (change == ChangeType.DELETE) {
            state.remove(key(values, keyIndexes));
        } else {
            state.put(key(values, keyIndexes), values);
        }
    }

    private static void compare(
            Map<List<Object>, List<Object>> fluss, Map<List<Object>, List<Object>> lake, int[] keyIndexes,
            List<String> differences) {
        long missing = 0;
        long extra = 0;
        long changed = 0;
        List<String> examples = new ArrayList<>();
        for (Map.Entry<List<Object>, List<Object>> entry : fluss.entrySet()) {
            List<Object> inLake = lake.get(entry.getKey());
            if (inLake == null) {
                missing++;
                example(examples, "key " + entry.getKey() + " is in Fluss at the lake offsets, not in the lake");
            } else if (!inLake.equals(entry.getValue())) {
                changed++;
                example(examples, "key " + entry.getKey() + ": lake " + inLake + ", Fluss " + entry.getValue());
            }
        }
        for (List<Object> key : lake.keySet()) {
            if (!fluss.containsKey(key)) {
                extra++;
                example(examples, "key " + key + " is in the lake, not in Fluss at the lake offsets");
            }
        }
        if (missing + extra + changed > 0) {
            differences.add(String.format("%,d keys missing from the lake, %,d only in the lake, %,d with other values",
                    missing, extra, changed));
            differences.addAll(examples);
        }
    }

    private static void example(List<String> examples, String difference) {
        if (examples.size() < MAX_DIFFERENCES) {
            examples.add(difference);
        }
    }

    /** Per bucket: its label, Fluss's start and end offsets, and partition names by id. */
    private Buckets buckets(TablePath path, TableInfo info) throws Exception {
        Buckets buckets = new Buckets();
        List<Integer> ids = IntStream.range(0, info.getNumBuckets()).boxed().toList();
        if (info.isPartitioned()) {
            for (PartitionInfo partition : fluss.partitions(path).get()) {
                buckets.partitionNames.put(partition.getPartitionId(), partition.getPartitionName());
                buckets.add(info.getTableId(), partition.getPartitionId(), partition.getPartitionName(), ids,
                        fluss.earliestOffsets(path, partition.getPartitionName(), ids).get(),
                        fluss.latestOffsets(path, partition.getPartitionName(), ids).get());
            }
        } else {
            buckets.add(info.getTableId(), null, null, ids,
                    fluss.earliestOffsets(path, null, ids).get(),
                    fluss.latestOffsets(path, null, ids).get());
        }
        return buckets;
    }

    private static final class Buckets {
        final Map<String, TableBucket> labels = new LinkedHashMap<>();
        final Map<TableBucket, Long> startOffsets = new HashMap<>();
        final Map<TableBucket, Long> endOffsets = new HashMap<>();
        final Map<Long, String> partitionNames = new HashMap<>();

        void add(long tableId, Long partitionId, String partitionName, List<Integer> ids, Map<Integer, Long> starts,
                Map<Integer, Long> ends) {
            for (int id : ids) {
                TableBucket bucket = new TableBucket(tableId, partitionId, id);
                labels.put(label(partitionName, id), bucket);
                startOffsets.put(bucket, starts.get(id));
                endOffsets.put(bucket, ends.get(id));
            }
        }
    }

    private static String label(String partitionName, int bucket) {
        return partitionName == null ? String.valueOf(bucket) : partitionName + "/" + bucket;
    }

    private static String partitionName(InternalRow row, int partitionFields) {
        if (partitionFields == 0) {
            return null;
        }
        List<String> values = new ArrayList<>();
        for (int i = 0; i < partitionFields; i++) {
            values.add(row.getString(i).toString());
        }
        return String.join("$", values);
    }

    private static void forEachLakeRow(FileStoreTable table, List<String> columns, java.util.function.Consumer<InternalRow> consumer)
            throws Exception {
        List<String> fields = table.rowType().getFieldNames();
        ReadBuilder read = table.newReadBuilder().withProjection(columns.stream().mapToInt(fields::indexOf).toArray());
        try (RecordReader<InternalRow> reader = read.newRead().createReader(read.newScan().plan().splits())) {
            reader.forEachRemaining(consumer::accept);
        }
    }

    private static RowType userRowType(RowType lakeRowType) {
        List<DataField> fields = lakeRowType.getFields().stream()
                .filter(f -> !SYSTEM_COLUMNS.contains(f.name()))
                .toList();
        return new RowType(fields);
    }

    /** The row's values as plain, comparable Java values (strings for text and binaries). */
    private static List<Object> values(InternalRow row, RowType type) {
        List<Object> values = new ArrayList<>(type.getFieldCount());
        for (int i = 0; i < type.getFieldCount(); i++) {
            Object value = InternalRow.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row);
            if (value instanceof BinaryString text) {
                value = text.toString();
            } else if (value instanceof byte[] bytes) {
                value = HexFormat.of().formatHex(bytes);
            } else if (value != null && !(value instanceof Number || value instanceof Boolean
                    || value instanceof Comparable<?>)) {
                value = String.valueOf(value);
            }
            values.add(value);
        }
        return values;
    }

    private static List<Object> key(List<Object> values, int[] keyIndexes) {
        List<Object> key = new ArrayList<>(keyIndexes.length);
        for (int index : keyIndexes) {
            key.add(values.get(index));
        }
        return key;
    }
}
