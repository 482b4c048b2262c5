package io.lakesync.tiering;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.fluss.FlussClient;
import io.lakesync.local.ClusterTest;
import io.lakesync.local.LocalFlussCluster;
import io.lakesync.tiering.lake.LakeTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.InternalRow;
import org.apache.paimon.data.InternalRow.FieldGetter;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.StreamTableScan;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** One real embedded Fluss cluster and Paimon warehouse per test class, with helpers to write and verify. */
@ClusterTest
public abstract class TieringTestBase {

    public static final Duration SYNC_TIMEOUT = Duration.ofSeconds(120);
    /** The most one Fluss call of a helper here waits. */
    public static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    protected static Path root;
    protected static LocalFlussCluster cluster;
    protected static Connection connection;
    protected static Admin admin;
    /** lakesync's client over {@link #connection}. */
    protected static FlussClient fluss;
    protected static LakeTables lake;

    @BeforeAll
    public static void startCluster() throws Exception {
        startCluster(Map.of());
    }

    /**
     * Starts the class's cluster with {@code settings} over the defaults, for example another lake catalog's
     * {@code datalake.paimon.*} options; a subclass calls it from its own {@code startCluster()}, which hides the
     * one above.
     */
    protected static void startCluster(Map<String, String> settings) throws Exception {
        root = Files.createTempDirectory("lakesync-tiering-test");
        Map<String, String> map = new HashMap<>(settings);
        map.put("data.dir", root.resolve("cluster").toString());
        map.put("local.coordinator.port", "0");
        LakeSyncConfig config = LakeSyncConfig.fromMap(map, "test");
        cluster = LocalFlussCluster.start(config, Map.of("kv.snapshot.interval", "1s"));
        connection = ConnectionFactory.createConnection(cluster.clientConfiguration());
        admin = connection.getAdmin();
        fluss = FlussClient.over(connection, Duration.ofSeconds(60));
        admin.createDatabase("fluss", DatabaseDescriptor.EMPTY, true).get();
        lake = new LakeTables(cluster.lakeCatalogOptions());
    }

    @AfterAll
    public static void stopCluster() throws Exception {
        lake.close();
        closeWithin(connection, Duration.ofSeconds(30));
        cluster.close();
    }

    /**
     * Closes a Fluss connection, giving up after {@code limit}: its writer waits without end for batches of a
     * table that was dropped meanwhile (Fluss 0.9.1), which must not hang the test run.
     */
    public static void closeWithin(AutoCloseable closeable, Duration limit) throws InterruptedException {
        Thread closer = new Thread(() -> {
            try {
                closeable.close();
            } catch (Exception e) {
                // Closing is best effort here; the cluster goes down next anyway.
            }
        }, "test-connection-closer");
        closer.setDaemon(true);
        closer.start();
        closer.join(limit.toMillis());
    }

    /** Service configuration for an instance with its own data folder under the test root. */
    public static LakeSyncConfig serviceConfig(String instance, Map<String, String> extra) {
        Map<String, String> map = new HashMap<>();
        map.put("data.dir", root.resolve(instance).toString());
        map.put("tiering.poll-interval", "200ms");
        map.put("tiering.idle-read-timeout", "3s");
        map.put("tiering.retry.initial-backoff", "200ms");
        map.putAll(extra);
        return cluster.serviceConfig(LakeSyncConfig.fromMap(map, "test"));
    }

    public static TieringService startService(String instance) throws Exception {
        TieringService service = new TieringService(serviceConfig(instance, Map.of()));
        service.start();
        return service;
    }

    /**
     * A lake-enabled table of one BIGINT column {@code id}, distributed by it over {@code buckets} buckets, with
     * the given {@code table.datalake.freshness}.
     */
    public static TableDescriptor idTable(int buckets, String freshness) {
        org.apache.fluss.metadata.Schema schema =
                org.apache.fluss.metadata.Schema.newBuilder().column("id", org.apache.fluss.types.DataTypes.BIGINT()).build();
        return lakeTable(schema, buckets, freshness).build();
    }

    /** A lake-enabled table of {@code schema}, distributed by its column {@code id} over {@code buckets} buckets. */
    public static TableDescriptor.Builder lakeTable(org.apache.fluss.metadata.Schema schema, int buckets, String freshness) {
        return TableDescriptor.builder()
                .schema(schema)
                .distributedBy(buckets, "id")
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", freshness);
    }

    /**
     * A lake-enabled primary-key table {@code (order_id BIGINT, status STRING)} over {@code buckets} buckets, the
     * shape {@link #upsertStatus} and {@link #deleteKeys} write.
     */
    public static TableDescriptor.Builder ordersTable(int buckets, String freshness) {
        return TableDescriptor.builder()
                .schema(org.apache.fluss.metadata.Schema.newBuilder()
                        .column("order_id", org.apache.fluss.types.DataTypes.BIGINT())
                        .column("status", org.apache.fluss.types.DataTypes.STRING())
                        .primaryKey("order_id")
                        .build())
                .distributedBy(buckets)
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", freshness);
    }

    /** Rows of {@link #idTable}: ids {@code from} (inclusive) to {@code to} (exclusive). */
    public static List<InternalRow> ids(long from, long to) {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(org.apache.fluss.row.GenericRow.of(id));
        }
        return rows;
    }

    /**
     * Creates {@code path} and, unless it is partitioned, waits until Fluss serves every bucket. Fluss 0.9.1 now
     * and then never elects a leader for a bucket of a new table, more often on a loaded machine (its writers then
     * wait without end, holding up every flush of the shared connection); such a table is dropped and created
     * once more.
     */
    public static TableInfo createTable(TablePath path, TableDescriptor descriptor) throws Exception {
        for (int attempt = 1; ; attempt++) {
            admin.createTable(path, descriptor, false).get();
            TableInfo info = admin.getTableInfo(path).get();
            if (info.isPartitioned()) {
                return info;
            }
            List<Integer> buckets = IntStream.range(0, info.getNumBuckets()).boxed().collect(Collectors.toList());
            try {
                eventually(Duration.ofSeconds(30), () -> {
                    try (Connection fresh = ConnectionFactory.createConnection(cluster.clientConfiguration())) {
                        fresh.getAdmin().listOffsets(path, buckets, new OffsetSpec.LatestSpec())
                                .all().get(5, java.util.concurrent.TimeUnit.SECONDS);
                    }
                });
                return info;
            } catch (Exception | AssertionError notServed) {
                if (attempt == 2) {
                    throw new AssertionError("Fluss never served the new table " + path, notServed);
                }
                admin.dropTable(path, false).get();
            }
        }
    }

    public static void append(TablePath path, List<InternalRow> rows) throws Exception {
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            rows.forEach(writer::append);
            writer.flush();
        }
    }

    /** Applies upserts ({@code delete=false}) or deletes of the given rows, in order. */
    public static void upsert(TablePath path, List<InternalRow> rows, boolean delete) throws Exception {
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (InternalRow row : rows) {
                if (delete) {
                    writer.delete(row);
                } else {
                    writer.upsert(row);
                }
            }
            writer.flush();
        }
    }

    /**
     * Upserts keys {@code from} (inclusive) to {@code to} (exclusive) of a table of a BIGINT primary key and one
     * STRING column, each with the value {@code "<status>-<key>"}, and records them in {@code expected}.
     */
    public static void upsertStatus(TablePath path, long from, long to, String status, Map<Long, String> expected)
            throws Exception {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            String value = status + "-" + id;
            rows.add(org.apache.fluss.row.GenericRow.of(id, org.apache.fluss.row.BinaryString.fromString(value)));
            expected.put(id, value);
        }
        upsert(path, rows, false);
    }

    /** Deletes the keys {@code from} to {@code to} that {@code expected} holds from such a table, and from it. */
    public static void deleteKeys(TablePath path, long from, long to, Map<Long, String> expected) throws Exception {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            if (expected.containsKey(id)) {
                rows.add(org.apache.fluss.row.GenericRow.of(
                        id, org.apache.fluss.row.BinaryString.fromString(expected.remove(id))));
            }
        }
        upsert(path, rows, true);
    }

    /** Such a table's lake content, key to value, failing on a key read twice. */
    public static Map<Long, String> readLakeByKey(TablePath path, String keyColumn, String valueColumn)
            throws Exception {
        Map<Long, String> content = new java.util.TreeMap<>();
        for (List<Object> row : readLake(path, keyColumn, valueColumn)) {
            assertThat(content.put((Long) row.get(0), (String) row.get(1))).as("key %s read twice", row.get(0)).isNull();
        }
        return content;
    }

    /** Fluss end offsets of every bucket (and partition) of the table. */
    public static Map<TableBucket, Long> endOffsets(TablePath path) throws Exception {
        return endOffsets(admin, path);
    }

    /**
     * Fluss end offsets of every bucket (and partition) of the table, asked through {@code admin}; each call
     * waits at most {@link #CALL_TIMEOUT}: Fluss 0.9.1's {@code listOffsets} never completes when a leader it
     * asks is gone.
     */
    public static Map<TableBucket, Long> endOffsets(Admin admin, TablePath path) throws Exception {
        TableInfo info = admin.getTableInfo(path).get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        List<Integer> buckets = IntStream.range(0, info.getNumBuckets()).boxed().collect(Collectors.toList());
        Map<TableBucket, Long> ends = new HashMap<>();
        if (info.isPartitioned()) {
            for (PartitionInfo partition : admin.listPartitionInfos(path).get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                admin.listOffsets(path, partition.getPartitionName(), buckets, new OffsetSpec.LatestSpec())
                        .all()
                        .get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                        .forEach((b, o) -> ends.put(new TableBucket(info.getTableId(), partition.getPartitionId(), b), o));
            }
        } else {
            admin.listOffsets(path, buckets, new OffsetSpec.LatestSpec())
                    .all()
                    .get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .forEach((b, o) -> ends.put(new TableBucket(info.getTableId(), b), o));
        }
        return ends;
    }

    /** Waits until the coordinator's readable lake snapshot covers every record Fluss holds now. */
    public static LakeSnapshot awaitTiered(TablePath path) throws Exception {
        return awaitTiered(path, endOffsets(path));
    }

    /** Waits until the coordinator's readable lake snapshot covers the end offsets {@code ends}. */
    public static LakeSnapshot awaitTiered(TablePath path, Map<TableBucket, Long> ends) throws Exception {
        Map<TableBucket, Long> written = new HashMap<>(ends);
        written.values().removeIf(o -> o == 0);
        LakeSnapshot[] last = new LakeSnapshot[1];
        eventually(SYNC_TIMEOUT, () -> {
            LakeSnapshot snapshot = admin.getReadableLakeSnapshot(path).get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(snapshot.getTableBucketsOffset()).containsAllEntriesOf(written);
            last[0] = snapshot;
        });
        return last[0];
    }

    /** How many files the lake table's folder in the warehouse holds (data, manifests, snapshots, schemas). */
    public static long lakeFileCount(TablePath path) throws Exception {
        Path folder = cluster.warehouse().resolve(path.getDatabaseName() + ".db").resolve(path.getTableName());
        try (java.util.stream.Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).count();
        }
    }

    /** The lake table's current content (merged by primary key), as rows of the named columns. */
    public static List<List<Object>> readLake(TablePath path, String... columns) throws Exception {
        FileStoreTable table = lake.load(path);
        ReadBuilder builder = table.newReadBuilder();
        return read(table, builder, builder.newScan().plan().splits(), columns, false);
    }

    /** The lake table's content at Paimon snapshot {@code snapshotId} (merged by primary key). */
    public static List<List<Object>> readLakeAt(TablePath path, long snapshotId, String... columns) throws Exception {
        FileStoreTable table = lake.load(path).copy(Map.of("scan.snapshot-id", Long.toString(snapshotId)));
        ReadBuilder builder = table.newReadBuilder();
        return read(table, builder, builder.newScan().plan().splits(), columns, false);
    }

    /** Every changelog entry of the lake table from its first snapshot, row kind first ("+I", "-D", ...). */
    public static List<List<Object>> readLakeChangelog(TablePath path, String... columns) throws Exception {
        FileStoreTable table = lake.load(path).copy(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1"));
        ReadBuilder builder = table.newReadBuilder();
        StreamTableScan scan = builder.newStreamScan();
        List<Split> splits = new ArrayList<>();
        Long latest = table.snapshotManager().latestSnapshotId();
        while (latest != null) {
            splits.addAll(scan.plan().splits());
            Long next = scan.checkpoint();
            if (next == null || next > latest) {
                break;
            }
        }
        return read(table, builder, splits, columns, true);
    }

    private static List<List<Object>> read(
            FileStoreTable table, ReadBuilder builder, List<Split> splits, String[] columns, boolean withKind)
            throws Exception {
        List<String> names = table.rowType().getFieldNames();
        List<FieldGetter> getters = new ArrayList<>();
        for (String column : columns) {
            int index = names.indexOf(column);
            assertThat(index).as("column %s of %s", column, table.name()).isNotNegative();
            getters.add(org.apache.paimon.data.InternalRow.createFieldGetter(table.rowType().getTypeAt(index), index));
        }
        List<List<Object>> rows = new ArrayList<>();
        try (RecordReader<org.apache.paimon.data.InternalRow> reader = builder.newRead().createReader(splits)) {
            reader.forEachRemaining(row -> {
                List<Object> values = new ArrayList<>();
                if (withKind) {
                    values.add(row.getRowKind().shortString());
                }
                for (FieldGetter getter : getters) {
                    Object value = getter.getFieldOrNull(row);
                    values.add(value instanceof org.apache.paimon.data.BinaryString ? value.toString() : value);
                }
                rows.add(values);
            });
        }
        return rows;
    }

    public static RowKind kind(List<Object> changelogRow) {
        return RowKind.fromShortString((String) changelogRow.get(0));
    }
}
