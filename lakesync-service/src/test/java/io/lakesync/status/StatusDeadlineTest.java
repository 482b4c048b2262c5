package io.lakesync.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.local.ClusterTest;
import io.lakesync.local.LocalFlussCluster;
import io.lakesync.fluss.BucketHeads;
import io.lakesync.fluss.Deadline;
import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.ReconnectingConnection;
import io.lakesync.fluss.SilentServer;
import io.lakesync.tiering.lake.LakeTables;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A status refresh finishes within its deadline when the cluster's servers accept connections and never answer. */
@ClusterTest
class StatusDeadlineTest {

    private static final TablePath EVENTS = TablePath.of("fluss", "events");
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(2);
    /** Thread scheduling on a shared 2-core machine. */
    private static final Duration SLACK = Duration.ofSeconds(3);

    @TempDir Path root;

    @Test
    void aRefreshAgainstServersThatNeverAnswerEndsInTimeAndMarksTheTable() throws Exception {
        LocalFlussCluster cluster = LocalFlussCluster.start(
                LakeSyncConfig.fromMap(Map.of("data.dir", root.toString(), "local.coordinator.port", "0"), "test"), Map.of());
        int coordinatorPort = cluster.coordinatorPort();
        int tabletPort = cluster.tabletServerPort();
        try (Connection client = ConnectionFactory.createConnection(cluster.clientConfiguration())) {
            client.getAdmin().createDatabase("fluss", DatabaseDescriptor.EMPTY, true).get();
            client.getAdmin().createTable(EVENTS, TableDescriptor.builder()
                    .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
                    .distributedBy(1)
                    .property("table.datalake.enabled", "true")
                    .build(), false).get();
            try (Table table = client.getTable(EVENTS)) {
                AppendWriter writer = table.newAppend().createWriter();
                writer.append(GenericRow.of(1L));
                writer.flush();
            }
        }
        // The watchdog is kept out of the way: this test is about the refresh's own deadline.
        try (ReconnectingConnection connection =
                        ReconnectingConnection.open(cluster.clientConfiguration(), Duration.ofMinutes(10), CALL_TIMEOUT);
                LakeTables lake = new LakeTables(cluster.lakeCatalogOptions())) {
            TableStatusTracker tracker = new TableStatusTracker(
                    new ClusterObserver(FlussClient.over(connection, CALL_TIMEOUT), lake, Clock.systemUTC()), Clock.systemUTC(), () -> true, 10,
                    CALL_TIMEOUT, Duration.ofMinutes(1));
            assertThat(tracker.refresh()).singleElement().satisfies(status -> {
                assertThat(status.state()).isEqualTo(TableState.INITIALIZING);
                assertThat(status.pendingRecords()).isEqualTo(1);
            });

            cluster.close();
            try (SilentServer coordinator = new SilentServer(coordinatorPort);
                    SilentServer tabletServer = new SilentServer(tabletPort)) {
                long started = System.nanoTime();
                List<TableStatus> statuses = tracker.refresh();
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(CALL_TIMEOUT.plus(SLACK));
                assertThat(tabletServer.connections()).as("the refresh did dial the silent tablet server").isPositive();
                assertThat(statuses).singleElement().satisfies(status -> {
                    assertThat(status.stale()).isTrue();
                    assertThat(status.state()).as("within the limit the last state stays").isEqualTo(TableState.INITIALIZING);
                    assertThat(status.pendingRecords()).as("last known figures").isEqualTo(1);
                    assertThat(status.reason()).startsWith("Cannot observe the table since ")
                            .contains("did not answer within 2000 ms");
                });
                assertThat(tracker.problems()).anySatisfy(problem -> assertThat(problem).startsWith("Cannot reach Fluss since"));

                // The one log fetch of a refresh: the silent tablet server fails its buckets in time.
                TableBucket bucket = new TableBucket(statuses.get(0).tableId(), 0);
                long fetchStarted = System.nanoTime();
                BucketHeads.Head head = BucketHeads.read(connection, List.of(new BucketHeads.Ask(EVENTS, bucket, 0, true)),
                        Deadline.in(CALL_TIMEOUT)).get(bucket);
                assertThat(Duration.ofNanos(System.nanoTime() - fetchStarted)).isLessThan(CALL_TIMEOUT.plus(SLACK));
                assertThat(head.error()).contains("did not answer within 2000 ms");
                assertThat(head.highWatermark()).isEqualTo(-1);
            }
        }
    }
}
