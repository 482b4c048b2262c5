package io.lakesync.bench.contender;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import org.apache.fluss.client.table.scanner.log.ScanRecords;
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
 * whole log, up to the end offset seen before the timed part. Every column of every row is touched.
 */
final class FlussReadBound implements Bound {

    private static final Duration POLL = Duration.ofSeconds(1);

    private record Plan(TablePath path, TableInfo info, Map<Integer, Long> ends, KvSnapshots snapshots) {}

    private final Configuration flussConf;
    private final List<TablePath> tables;
    private final List<Plan> plans = new ArrayList<>();
    private Connection connection;
    private long rowsRead;
    private long checksum;

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
        for (Plan plan : plans) {
            try (Table table = connection.getTable(plan.path())) {
                Map<Integer, Long> starts = new HashMap<>();
                if (plan.snapshots() != null) {
                    readSnapshots(table, plan, starts);
                }
                readLog(table, plan, starts);
            }
        }
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("rowsRead", rowsRead);
        figures.put("checksum", checksum);
        return figures;
    }

    private void readSnapshots(Table table, Plan plan, Map<Integer, Long> starts) throws Exception {
        for (int bucket : plan.ends().keySet()) {
            if (plan.snapshots().getSnapshotId(bucket).isEmpty()) {
                continue;
            }
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
            starts.put(bucket, plan.snapshots().getLogOffset(bucket).getAsLong());
        }
    }

    private void readLog(Table table, Plan plan, Map<Integer, Long> starts) throws Exception {
        Set<Integer> pending = new HashSet<>();
        try (LogScanner scanner = table.newScan().createLogScanner()) {
            for (Map.Entry<Integer, Long> end : plan.ends().entrySet()) {
                long start = starts.getOrDefault(end.getKey(), LogScanner.EARLIEST_OFFSET);
                if (end.getValue() > 0 && start < end.getValue()) {
                    scanner.subscribe(end.getKey(), start);
                    pending.add(end.getKey());
                }
            }
            while (!pending.isEmpty()) {
                ScanRecords records = scanner.poll(POLL);
                for (TableBucket bucket : records.buckets()) {
                    long end = plan.ends().get(bucket.getBucket());
                    for (ScanRecord record : records.records(bucket)) {
                        if (record.logOffset() < end) {
                            consume(record.getRow());
                        }
                        if (record.logOffset() >= end - 1) {
                            pending.remove(bucket.getBucket());
                        }
                    }
                }
            }
        }
    }

    private void consume(InternalRow row) {
        rowsRead++;
        checksum += row.getLong(0) ^ row.getInt(1) ^ row.getLong(2)
                ^ row.getString(3).getSizeInBytes() ^ row.getString(4).getSizeInBytes()
                ^ row.getString(5).getSizeInBytes();
    }

    @Override
    public void close() throws Exception {
        if (connection != null) {
            connection.close();
        }
    }
}
