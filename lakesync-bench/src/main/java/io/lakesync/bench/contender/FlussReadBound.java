package io.lakesync.bench.contender;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.batch.BatchScanner;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.utils.CloseableIterator;

/**
 * The read bound: reads what a tiering reads, with the Fluss client, and discards it. Per bucket that is the
 * latest KV snapshot (primary-key tables that have one) and then the log from the snapshot's offset, or the
 * whole log, up to the end offset seen before the timed part. Every bucket is read by its own thread with its
 * own scanners, as parallel as any tiering can read; every column of every row is touched.
 */
final class FlussReadBound implements Bound {

    private static final Duration POLL = Duration.ofSeconds(1);

    private record Plan(TablePath path, TableInfo info, Map<Integer, Long> ends, KvSnapshots snapshots) {}

    private final Configuration flussConf;
    private final List<TablePath> tables;
    private final List<Plan> plans = new ArrayList<>();
    private Connection connection;
    private final LongAdder rowsRead = new LongAdder();
    private final LongAdder checksum = new LongAdder();

    FlussReadBound(String bootstrapServers, List<TablePath> tables, Path workDir) {
        this.flussConf = new Configuration();
        flussConf.setString(ConfigOptions.BOOTSTRAP_SERVERS.key(), bootstrapServers);
        flussConf.setString(ConfigOptions.CLIENT_SCANNER_IO_TMP_DIR.key(), workDir.resolve("scanner").toString());
        this.tables = tables;
    }

    @Override
    public void prepare() throws Exception {
        connection = ConnectionFactory.createConnection(flussConf);
        Admin admin = connection.getAdmin();
        for (TablePath path : tables) {
            TableInfo info = admin.getTableInfo(path).get();
            List<Integer> buckets = IntStream.range(0, info.getNumBuckets()).boxed().toList();
            Map<Integer, Long> ends = admin.listOffsets(path, buckets, new OffsetSpec.LatestSpec()).all().get();
            KvSnapshots snapshots = info.hasPrimaryKey() ? admin.getLatestKvSnapshots(path).get() : null;
            plans.add(new Plan(path, info, ends, snapshots));
        }
    }

    @Override
    public Map<String, Object> run() throws Exception {
        ExecutorService readers = Executors.newFixedThreadPool(
                plans.stream().mapToInt(p -> p.ends().size()).sum(), runnable -> {
                    Thread thread = new Thread(runnable, "read-bound");
                    thread.setDaemon(true);
                    return thread;
                });
        try {
            List<Future<?>> buckets = new ArrayList<>();
            for (Plan plan : plans) {
                for (int bucket : plan.ends().keySet()) {
                    buckets.add(readers.submit(() -> {
                        readBucket(plan, bucket);
                        return null;
                    }));
                }
            }
            for (Future<?> bucket : buckets) {
                bucket.get();
            }
        } finally {
            readers.shutdownNow();
        }
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("rowsRead", rowsRead.sum());
        figures.put("checksum", checksum.sum());
        return figures;
    }

    /** One bucket, in its own thread with its own scanners: its KV snapshot if any, then its log. */
    private void readBucket(Plan plan, int bucket) throws Exception {
        long end = plan.ends().get(bucket);
        long start = LogScanner.EARLIEST_OFFSET;
        try (Table table = connection.getTable(plan.path())) {
            if (plan.snapshots() != null && plan.snapshots().getSnapshotId(bucket).isPresent()) {
                long snapshotId = plan.snapshots().getSnapshotId(bucket).getAsLong();
                TableBucket tableBucket = new TableBucket(plan.info().getTableId(), bucket);
                try (BatchScanner scanner = table.newScan().createBatchScanner(tableBucket, snapshotId)) {
                    CloseableIterator<InternalRow> batch;
                    while ((batch = scanner.pollBatch(POLL)) != null) {
                        while (batch.hasNext()) {
                            consume(batch.next());
                        }
                        batch.close();
                    }
                }
                start = plan.snapshots().getLogOffset(bucket).getAsLong();
            }
            if (end == 0 || start >= end) {
                return;
            }
            try (LogScanner scanner = table.newScan().createLogScanner()) {
                scanner.subscribe(bucket, start);
                long last = -1;
                while (last < end - 1) {
                    for (ScanRecord record : scanner.poll(POLL)) {
                        if (record.logOffset() < end) {
                            consume(record.getRow());
                        }
                        last = Math.max(last, record.logOffset());
                    }
                }
            }
        }
    }

    private void consume(InternalRow row) {
        rowsRead.increment();
        checksum.add(row.getLong(0) ^ row.getInt(1) ^ row.getLong(2)
                ^ row.getString(3).getSizeInBytes() ^ row.getString(4).getSizeInBytes()
                ^ row.getString(5).getSizeInBytes());
    }

    @Override
    public void close() throws Exception {
        if (connection != null) {
            connection.close();
        }
    }
}
