package io.lakesync.cli;

import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.TableWrites;
import io.lakesync.server.LakeSyncServer;
import io.lakesync.status.TableStatus;
import io.lakesync.tiering.lake.LakeTables;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.Snapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code --demo} workload of the local stack: the spec's example primary-key table
 * {@code fluss.datalake_orders} and an append-only log table {@code fluss.datalake_clicks}, both with
 * {@code table.datalake.freshness = 10s}, fed a continuous stream of inserts, updates and deletes, with a live
 * line per table: records in Fluss, records in the lake, sync latency and the last checkpoint.
 */
final class Demo implements AutoCloseable {

    static final TablePath ORDERS = TablePath.of("fluss", "datalake_orders");
    static final TablePath CLICKS = TablePath.of("fluss", "datalake_clicks");

    private static final Logger LOG = LoggerFactory.getLogger(Demo.class);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());
    private static final int KEYS = 10_000;
    private static final Duration LAST_FLUSH_TIMEOUT = Duration.ofSeconds(10);

    private final FlussClient fluss;
    private final LakeTables lake;
    private final LakeSyncServer server;
    private final PrintWriter out;
    private final int rowsPerSecond;
    private final ScheduledExecutorService threads = Executors.newScheduledThreadPool(2, r -> {
        Thread thread = new Thread(r, "lakesync-demo");
        thread.setDaemon(true);
        return thread;
    });
    private final Random random = new Random(42);
    private TableWrites orders;
    private TableWrites clicks;

    Demo(FlussClient fluss, LakeTables lake, LakeSyncServer server, PrintWriter out, int rowsPerSecond) {
        this.fluss = fluss;
        this.lake = lake;
        this.server = server;
        this.out = out;
        this.rowsPerSecond = rowsPerSecond;
    }

    /** Creates the two tables if they do not exist yet, then writes and reports until closed. */
    void start() throws Exception {
        createTablesIfAbsent(fluss);
        orders = fluss.writes(ORDERS);
        clicks = fluss.writes(CLICKS);
        int perTick = Math.max(1, rowsPerSecond / 10);
        threads.scheduleAtFixedRate(() -> write(perTick), 0, 100, TimeUnit.MILLISECONDS);
        threads.scheduleAtFixedRate(this::report, 5, 5, TimeUnit.SECONDS);
        out.println("Demo: writing about " + rowsPerSecond + " changes/s into " + ORDERS + " (inserts, updates, deletes) and "
                + rowsPerSecond + " rows/s into " + CLICKS + "; a status line per table every 5 s.");
        out.flush();
    }

    /** Creates the demo database and tables, skipping those that exist (see {@link FlussClient#createTableIfAbsent}). */
    static void createTablesIfAbsent(FlussClient fluss) throws Exception {
        fluss.createDatabase("fluss").get();
        fluss.createTableIfAbsent(ORDERS, TableDescriptor.builder()
                .schema(Schema.newBuilder()
                        .column("shop_id", DataTypes.BIGINT())
                        .column("user_id", DataTypes.BIGINT())
                        .column("num_orders", DataTypes.INT())
                        .column("total_amount", DataTypes.INT())
                        .primaryKey("shop_id", "user_id")
                        .build())
                .distributedBy(4)
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "10s")
                .build()).get();
        fluss.createTableIfAbsent(CLICKS, TableDescriptor.builder()
                .schema(Schema.newBuilder()
                        .column("shop_id", DataTypes.BIGINT())
                        .column("user_id", DataTypes.BIGINT())
                        .column("page", DataTypes.STRING())
                        .build())
                .distributedBy(4, "user_id")
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "10s")
                .build()).get();
    }

    private void write(int rows) {
        try {
            for (int i = 0; i < rows; i++) {
                long shop = random.nextInt(100);
                long user = random.nextInt(KEYS / 100);
                if (random.nextInt(20) == 0) {
                    orders.delete(GenericRow.of(shop, user, 0, 0));
                } else {
                    orders.upsert(GenericRow.of(shop, user, random.nextInt(50), random.nextInt(10_000)));
                }
                clicks.append(GenericRow.of(shop, user, BinaryString.fromString("/shop/" + shop + "/item/" + random.nextInt(500))));
            }
            orders.flush();
            clicks.flush();
        } catch (Exception e) {
            LOG.warn("Demo writer: {}", e.toString());
        }
    }

    private void report() {
        try {
            for (TablePath path : List.of(ORDERS, CLICKS)) {
                TableStatus status = server.status().table(path).orElse(null);
                if (status == null) {
                    continue;
                }
                long inFluss = status.buckets().stream().mapToLong(b -> b.endOffset()).sum();
                Snapshot snapshot = lake.load(path).snapshotManager().latestSnapshot();
                long inLake = snapshot == null ? 0 : snapshot.totalRecordCount();
                String checkpoint = status.lakeSnapshotId() == null ? "none yet"
                        : "snapshot " + status.lakeSnapshotId() + " @ " + TIME.format(status.lakeCommittedAt());
                out.printf("%s  %-24s %-12s fluss=%,d  lake=%,d  pending=%,d  sync latency=%s  checkpoint=%s%n",
                        TIME.format(status.observedAt()), path, status.state(), inFluss, inLake, status.pendingRecords(),
                        StatusCommand.duration(status.syncLatency().toMillis()), checkpoint);
            }
            out.flush();
        } catch (Exception e) {
            LOG.debug("Demo report failed", e);
        }
    }

    @Override
    public void close() throws Exception {
        // Not shutdownNow(): interrupting a flush in progress breaks the Fluss writer's memory accounting, which
        // its sender thread then reports as errors. The write in progress finishes; no new one starts.
        threads.shutdown();
        if (!threads.awaitTermination(LAST_FLUSH_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            LOG.warn("Demo writer: its last flush did not finish within {}; those rows are not in Fluss",
                    LAST_FLUSH_TIMEOUT);
            threads.shutdownNow();
        }
        if (orders != null) {
            orders.close();
        }
        if (clicks != null) {
            clicks.close();
        }
    }
}
