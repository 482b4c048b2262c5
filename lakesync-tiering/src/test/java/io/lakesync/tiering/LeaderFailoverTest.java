package io.lakesync.tiering;

import static io.lakesync.local.Eventually.eventually;
import static io.lakesync.local.Eventually.waitFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.fluss.ReconnectingConnection;
import io.lakesync.fluss.TableWrites;
import java.io.Reader;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.metadata.PartitionSpec;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Three tablet servers, every bucket on all three: a log, a primary-key and a partitioned table keep syncing while
 * the tablet server leading a bucket is stopped during writes (its buckets fail over to other leaders) and started
 * again, and while the coordinator restarts; the lake then holds every written row exactly once.
 */
class LeaderFailoverTest extends TieringTestBase {

    private static final TablePath EVENTS = TablePath.of("fluss", "failover_events");
    private static final TablePath ORDERS = TablePath.of("fluss", "failover_orders");
    private static final TablePath CLICKS = TablePath.of("fluss", "failover_clicks_by_day");
    private static final List<String> DAYS = List.of("2026-12-01", "2026-12-02");
    private static final int BATCH = 250;

    @BeforeAll
    public static void startCluster() throws Exception {
        startCluster(Map.of("local.tablet-servers", "3"));
    }

    @Test
    void everyRowReachesTheLakeExactlyOnceThroughALeaderFailoverAndACoordinatorRestart() throws Exception {
        assertThat(cluster.tabletServerCount()).isEqualTo(3);
        Properties ports = new Properties();
        try (Reader reader = Files.newBufferedReader(cluster.dataDir().resolve("ports.properties"))) {
            ports.load(reader);
        }
        for (int index = 0; index < 3; index++) {
            assertThat(cluster.dataDir().resolve("tablet-server-" + index)).as("a data folder per server").isDirectory();
            String key = index == 0 ? "local.tablet-server.port" : "local.tablet-server-" + index + ".port";
            assertThat(ports.getProperty(key)).as("remembered for the next start")
                    .isEqualTo(Integer.toString(cluster.tabletServerPort(index)));
        }
        TableInfo events = createTable(EVENTS, idTable(3, "1s"));
        assertThat(events.getTableConfig().getReplicationFactor()).as("a replica on every tablet server").isEqualTo(3);
        createTable(ORDERS, ordersTable(3, "1s").build());
        Schema clicksSchema = Schema.newBuilder().column("id", DataTypes.BIGINT()).column("day", DataTypes.STRING()).build();
        createTable(CLICKS, lakeTable(clicksSchema, 2, "1s").partitionedBy("day").build());
        for (String day : DAYS) {
            // Before any fault: a new partition needs as many live tablet servers as replicas.
            admin.createPartition(CLICKS, new PartitionSpec(Map.of("day", day)), false).get();
        }
        Map<Long, String> expectedOrders;
        // Probed by hand (its watchdog waits 10 minutes), to see it follow the tablet servers step by step.
        try (Writers writers = new Writers();
                ReconnectingConnection probe = ReconnectingConnection.open(
                        cluster.clientConfiguration(), Duration.ofMinutes(10), Duration.ofSeconds(5));
                // No warm-up: this test is about faults, and the warm-up's 7 s are paid once per JVM anyway.
                TieringService service = new TieringService(
                        serviceConfig("failover-instance", Map.of("tiering.warm-up", "false")))) {
            service.start();
            AtomicLong written = writers.written;
            writers.write(0, 1_000);
            awaitAllTiered();

            Set<TableBucket> buckets = new HashSet<>();
            for (TablePath path : List.of(EVENTS, ORDERS, CLICKS)) {
                buckets.addAll(endOffsets(path).keySet());
            }
            int leader = cluster.leaderOf(new TableBucket(events.getTableId(), 0));
            assertThat(leader).as("a running tablet server leads the bucket").isNotNegative();
            int leaderPort = cluster.tabletServerPort(leader);
            CompletableFuture<Void> writing = writers.writeInBackground(1_000, 2_500);
            eventually(SYNC_TIMEOUT, () -> assertThat(written.get()).isGreaterThanOrEqualTo(1_250));
            // What an operator checks before stopping a server: a bucket whose followers fell out of sync (a busy
            // machine) has no one to take the lead over, and its writes wait for the stopped server to come back.
            eventually(SYNC_TIMEOUT, () -> buckets.forEach(bucket -> assertThat(cluster.inSyncReplicasOf(bucket))
                    .as("the replicas in sync with bucket %s's leader", bucket).containsExactlyInAnyOrder(0, 1, 2)));
            cluster.stopTabletServer(leader);
            assertThat(cluster.tabletServerRunning(leader)).isFalse();
            assertThatThrownBy(() -> cluster.stopTabletServer(leader)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("Tablet server " + leader + " is not running.");
            assertThatThrownBy(() -> cluster.startTabletServer(3)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("No tablet server 3: the stack has 3 (config key 'local.tablet-servers').");
            awaitWriters(writing, buckets);
            awaitAllTiered();
            assertFollowsTheRunningTabletServers(probe);

            cluster.startTabletServer(leader);
            assertThat(cluster.tabletServerRunning(leader)).isTrue();
            assertThat(cluster.tabletServerPort(leader)).as("back on its port").isEqualTo(leaderPort);
            assertFollowsTheRunningTabletServers(probe);
            writers.write(2_500, 3_000);
            awaitAllTiered();

            writing = writers.writeInBackground(3_000, 4_000);
            eventually(SYNC_TIMEOUT, () -> assertThat(written.get()).isGreaterThanOrEqualTo(3_250));
            cluster.restartCoordinator();
            awaitWriters(writing, buckets);
            assertFollowsTheRunningTabletServers(probe);
            Map<TableBucket, Long> eventEnds = awaitAllTiered();
            eventually(SYNC_TIMEOUT, () -> eventEnds.forEach((bucket, end) -> assertThat(cluster.lakeLogEndOffset(bucket))
                    .as("the lake end offset bucket %s's leader holds", bucket.getBucket()).isEqualTo(end)));
            expectedOrders = writers.expectedOrders;
        }

        List<Long> expectedIds = LongStream.range(0, 4_000).boxed().toList();
        assertThat(readLake(EVENTS, "id").stream().map(row -> (Long) row.get(0)).sorted().toList())
                .as("every log row exactly once").isEqualTo(expectedIds);
        assertThat(readLakeByKey(ORDERS, "order_id", "status")).as("every key at its last value").isEqualTo(expectedOrders);
        List<List<Object>> clicks = readLake(CLICKS, "id", "day");
        assertThat(clicks.stream().map(row -> (Long) row.get(0)).sorted().toList())
                .as("every partitioned row exactly once").isEqualTo(expectedIds);
        assertThat(clicks).allSatisfy(row -> assertThat(row.get(1)).isEqualTo(day((Long) row.get(0))));
    }

    /**
     * Writers of the three tables, opened once before any fault: opening a table asks a random tablet server the
     * client knows of, which may be the stopped one; the writers themselves follow the leaders. Opened as lakesync
     * opens what it writes ({@code FlussClient#writes}): each table on a connection of its own, which keeps Fluss
     * 0.9.1's sender from confusing the tables' batches when a leader stops (apache/fluss#3772).
     */
    private static final class Writers implements AutoCloseable {
        private final TableWrites events;
        private final TableWrites orders;
        private final TableWrites clicks;
        /** What the primary-key table must hold: keys come back with new values, the last one counts. */
        private final Map<Long, String> expectedOrders = new TreeMap<>();
        /** Ids below this are written (flushed) into every table. */
        private final AtomicLong written = new AtomicLong();

        Writers() throws Exception {
            events = fluss.writes(EVENTS);
            orders = fluss.writes(ORDERS);
            clicks = fluss.writes(CLICKS);
        }

        /** Writes ids {@code from} to {@code to} into the three tables, {@link #BATCH} at a time. */
        void write(long from, long to) {
            for (long start = from; start < to; start += BATCH) {
                long end = Math.min(to, start + BATCH);
                for (long id = start; id < end; id++) {
                    events.append(GenericRow.of(id));
                    String status = "v" + id;
                    orders.upsert(GenericRow.of(id % 700, BinaryString.fromString(status)));
                    expectedOrders.put(id % 700, status);
                    clicks.append(GenericRow.of(id, BinaryString.fromString(day(id))));
                }
                events.flush();
                orders.flush();
                clicks.flush();
                written.set(end);
            }
        }

        CompletableFuture<Void> writeInBackground(long from, long to) {
            return CompletableFuture.runAsync(() -> write(from, to));
        }

        @Override
        public void close() throws Exception {
            for (TableWrites table : List.of(events, orders, clicks)) {
                table.close();
            }
        }
    }

    /**
     * Waits for the background writes; when they hang, fails naming each bucket's leader and in-sync replicas (a
     * bucket no one leads, or a writer stuck with leaders in place), and prints the threads that write.
     */
    private static void awaitWriters(CompletableFuture<Void> writing, Set<TableBucket> buckets) throws Exception {
        try {
            writing.get(SYNC_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException hung) {
            Thread.getAllStackTraces().forEach((thread, stack) -> {
                if (Arrays.stream(stack).anyMatch(frame -> frame.getClassName().startsWith("org.apache.fluss.client.write")
                        || frame.getClassName().contains("LeaderFailoverTest"))) {
                    System.out.println(thread.getName() + " " + thread.getState() + Arrays.stream(stack)
                            .map(frame -> "\n\tat " + frame).collect(Collectors.joining()));
                }
            });
            String leaders = buckets.stream().map(bucket -> bucket + ": leader " + cluster.leaderOf(bucket) + ", in sync "
                    + cluster.inSyncReplicasOf(bucket)).sorted().collect(Collectors.joining("; "));
            throw new AssertionError("The writers did not finish within " + SYNC_TIMEOUT.toSeconds() + " s; " + leaders,
                    hung);
        }
    }

    private static String day(long id) {
        return DAYS.get((int) (id % DAYS.size()));
    }

    /** Waits until the three tables are tiered up to their ends now; returns the log table's ends. */
    private static Map<TableBucket, Long> awaitAllTiered() throws Exception {
        Map<TableBucket, Long> eventEnds = null;
        for (TablePath path : List.of(EVENTS, ORDERS, CLICKS)) {
            // A fresh connection each attempt: the shared one may still name a stopped leader.
            Map<TableBucket, Long> ends = waitFor(SYNC_TIMEOUT, "the end offsets of " + path, () -> {
                try (Connection fresh = ConnectionFactory.createConnection(cluster.clientConfiguration())) {
                    return endOffsets(fresh.getAdmin(), path);
                }
            });
            awaitTiered(path, ends);
            if (path.equals(EVENTS)) {
                eventEnds = ends;
            }
        }
        return eventEnds;
    }

    /** The connection's probe ends up with exactly the running tablet servers cached, each of them answering. */
    private static void assertFollowsTheRunningTabletServers(ReconnectingConnection probe) throws Exception {
        Set<Integer> running = IntStream.range(0, cluster.tabletServerCount())
                .filter(cluster::tabletServerRunning).boxed().collect(Collectors.toSet());
        eventually(SYNC_TIMEOUT, () -> {
            probe.check();
            assertThat(((FlussConnection) probe.current()).getMetadataUpdater().getCluster().getAliveTabletServers())
                    .as("the tablet servers the connection dials").containsOnlyKeys(running);
            assertThat(probe.silentTabletServers()).isNull();
            assertThat(probe.unreachableReason()).isNull();
        });
    }
}
