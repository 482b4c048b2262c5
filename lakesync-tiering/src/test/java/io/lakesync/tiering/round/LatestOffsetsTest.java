package io.lakesync.tiering.round;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.fluss.LatestOffsets;
import io.lakesync.tiering.TieringTestBase;
import io.lakesync.fluss.ReconnectingConnection;
import java.lang.reflect.Proxy;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link LatestOffsets} against a real cluster: the admin's answers, and failures that fail the call. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class LatestOffsetsTest extends TieringTestBase {

    private static final List<Integer> THREE_BUCKETS = List.of(0, 1, 2);

    @Test
    void answersWhatTheAdminAnswersForATableAndForEachPartition() throws Exception {
        TablePath log = TablePath.of("fluss", "latest_log");
        TableInfo logInfo = createTable(log, idTable(3, "1h"));
        append(log, ids(0, 25));
        TablePath partitioned = TablePath.of("fluss", "latest_partitioned");
        TableInfo partitionedInfo = createPartitionedByDay(partitioned);
        append(partitioned, List.of(row(1, "a"), row(2, "a"), row(3, "b")));
        LatestOffsets latest = LatestOffsets.of(connection);

        Map<Integer, Long> logOffsets = latest.highWatermarks(log, logInfo.getTableId(), null, THREE_BUCKETS);
        assertThat(logOffsets)
                .isEqualTo(admin.listOffsets(log, THREE_BUCKETS, new OffsetSpec.LatestSpec()).all().get());
        assertThat(logOffsets.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(25);

        List<PartitionInfo> partitions = admin.listPartitionInfos(partitioned).get();
        assertThat(partitions).hasSize(2);
        long rows = 0;
        for (PartitionInfo partition : partitions) {
            Map<Integer, Long> offsets =
                    latest.highWatermarks(partitioned, partitionedInfo.getTableId(), partition.getPartitionId(), THREE_BUCKETS);
            assertThat(offsets).isEqualTo(admin.listOffsets(
                            partitioned, partition.getPartitionName(), THREE_BUCKETS, new OffsetSpec.LatestSpec())
                    .all()
                    .get());
            rows += offsets.values().stream().mapToLong(Long::longValue).sum();
        }
        assertThat(rows).isEqualTo(3);
    }

    @Test
    void aTableWithoutPartitionsHasItsBucketsAskedWithoutItsTableInfoAndOnlyUnderItsOwnId() throws Exception {
        TablePath log = TablePath.of("fluss", "latest_unpartitioned");
        TableInfo logInfo = createTable(log, idTable(3, "1h"));
        append(log, ids(0, 40));
        TablePath partitioned = TablePath.of("fluss", "latest_by_day");
        TableInfo partitionedInfo = createPartitionedByDay(partitioned);
        append(partitioned, List.of(row(1, "a")));
        LatestOffsets latest = LatestOffsets.of(connection);

        Optional<Map<Integer, Long>> early = latest.unpartitionedHighWatermarks(log, logInfo.getTableId());
        assertThat(early).contains(latest.highWatermarks(log, logInfo.getTableId(), null, THREE_BUCKETS));
        assertThat(early.get().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(40);
        List<RoundPlanner.PartitionEnds> ends = List.of(new RoundPlanner.PartitionEnds(null, null, early.get()));
        assertThat(RoundPlanner.fits(logInfo, ends)).as("every bucket of the table").isTrue();
        assertThat(RoundPlanner.fits(logInfo, List.of(new RoundPlanner.PartitionEnds(null, null, Map.of(0, 1L)))))
                .as("a bucket missing")
                .isFalse();
        assertThat(RoundPlanner.fits(partitionedInfo, ends)).as("a partitioned table's ends are per partition").isFalse();

        assertThat(latest.unpartitionedHighWatermarks(partitioned, partitionedInfo.getTableId()))
                .as("a partitioned table's buckets are its partitions'")
                .isEmpty();
        assertThat(latest.unpartitionedHighWatermarks(log, logInfo.getTableId() + 1000))
                .as("the path is another table's (dropped and re-created)")
                .isEmpty();
    }

    @Test
    void aDroppedTableOrABucketItDoesNotHaveFailsTheCallInsteadOfWaiting() throws Exception {
        TablePath path = TablePath.of("fluss", "latest_dropped");
        TableInfo info = createTable(path, idTable(3, "1h"));
        LatestOffsets latest = LatestOffsets.of(connection);
        assertThat(latest.highWatermarks(path, info.getTableId(), null, THREE_BUCKETS)).containsOnlyKeys(0, 1, 2);

        assertThatThrownBy(() -> latest.highWatermarks(path, info.getTableId(), null, List.of(0, 7)))
                .as("bucket 7 has no leader")
                .hasMessageContaining("7");

        // The tablet servers answer for a dropped table until the coordinator has stopped its replicas.
        admin.dropTable(path, false).get();
        long giveUpAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Exception failure = null;
        while (failure == null && System.nanoTime() < giveUpAt) {
            try {
                latest.highWatermarks(path, info.getTableId(), null, THREE_BUCKETS);
                Thread.sleep(100);
            } catch (Exception e) {
                failure = e;
            }
        }
        assertThat(failure).as("once its replicas are gone, asking fails instead of waiting").isNotNull();
    }

    @Test
    void anUnreachableClusterFailsTheCallNotTheSetUp() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Configuration conf = new Configuration();
        conf.setString(ConfigOptions.BOOTSTRAP_SERVERS.key(), "127.0.0.1:" + closedPort);
        try (ReconnectingConnection unreachable = ReconnectingConnection.open(conf)) {
            LatestOffsets latest = LatestOffsets.of(unreachable);
            assertThat(latest).as("made without connecting").isNotNull();
            assertThatThrownBy(() -> latest.highWatermarks(TablePath.of("fluss", "anything"), 1L, null, THREE_BUCKETS))
                    .hasMessageContaining("127.0.0.1:" + closedPort);
        }
    }

    @Test
    void onlyADirectFlussConnectionHasThem() {
        Connection other = (Connection) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> null);
        assertThat(LatestOffsets.of(other)).isNull();
        assertThat(LatestOffsets.of(connection)).isNotNull();
    }

    /** A lake table of three buckets, partitioned by its column {@code day}. */
    private static TableInfo createPartitionedByDay(TablePath path) throws Exception {
        return createTable(path, lakeTable(
                        Schema.newBuilder()
                                .column("id", DataTypes.BIGINT())
                                .column("day", DataTypes.STRING())
                                .build(),
                        3,
                        "1h")
                .partitionedBy("day")
                .build());
    }

    private static InternalRow row(long id, String day) {
        return GenericRow.of(id, BinaryString.fromString(day));
    }
}
