package io.lakesync.status;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.TieringListener;
import io.lakesync.tiering.TieringService;
import io.lakesync.tiering.TieringTestBase;
import io.lakesync.tiering.round.RoundHooks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.schema.SchemaChange;
import org.junit.jupiter.api.Test;

/** Status values measured against what was written and tiered on the real stack. */
class TableStatusTrackerTest extends TieringTestBase {

    @Test
    void latencyAndCheckpointMatchWhatWasWrittenAndTiered() throws Exception {
        TablePath path = TablePath.of("fluss", "tracked");
        TablePath off = TablePath.of("fluss", "not_in_lake");
        createTable(path, descriptor(true));
        createTable(off, descriptor(false));
        Instant beforeWrite = Instant.now();
        append(path, ids(0, 1_000));
        Instant afterWrite = Instant.now();

        TableStatusTracker tracker =
                new TableStatusTracker(new ClusterObserver(fluss, lake, Clock.systemUTC()), Clock.systemUTC(), () -> true, 100, Duration.ofSeconds(10), Duration.ofSeconds(15));
        TableStatus initial = statusOf(tracker, path);
        assertThat(initial.state()).isEqualTo(TableState.INITIALIZING);
        assertThat(initial.pendingRecords()).isEqualTo(1_000);
        assertLatencyBetween(initial, beforeWrite, afterWrite);
        assertThat(statusOf(tracker, off).state()).isEqualTo(TableState.DISABLED);

        try (TieringService service = new TieringService(serviceConfig("tracked-instance", Map.of()), tracker, RoundHooks.NONE, Clock.systemUTC())) {
            service.start();
            LakeSnapshot tiered = awaitTiered(path);
            // Continuous mode runs (empty) rounds until no record came for a freshness: SYNCING until then.
            TableStatus[] shown = new TableStatus[1];
            eventually(Duration.ofSeconds(15), () -> {
                shown[0] = statusOf(tracker, path);
                assertThat(shown[0].state()).isEqualTo(TableState.UP_TO_DATE);
            });
            TableStatus synced = shown[0];
            assertThat(synced.pendingRecords()).isZero();
            assertThat(synced.syncLatency()).isZero();
            assertThat(synced.lakeSnapshotId()).isEqualTo(tiered.getSnapshotId());
            assertThat(synced.lakeCommittedAt()).isBetween(afterWrite, Instant.now());
            for (BucketCheckpoint bucket : synced.buckets()) {
                assertThat(bucket.tieredOffset())
                        .isEqualTo(tiered.getTableBucketsOffset().get(new TableBucket(synced.tableId(), bucket.bucket())));
                assertThat(bucket.tieredOffset()).isEqualTo(bucket.endOffset());
            }
            assertThat(synced.activity().rowsTiered()).isEqualTo(1_000);
            assertThat(synced.activity().rounds()).isPositive();
        }

        Instant beforeMore = Instant.now();
        append(path, ids(1_000, 1_500));
        Instant afterMore = Instant.now();
        TableStatus behind = statusOf(tracker, path);
        assertThat(behind.pendingRecords()).isEqualTo(500);
        assertLatencyBetween(behind, beforeMore, afterMore);
        assertThat(behind.checkpointAge()).isPositive();
        assertThat(tracker.history(path)).hasSizeGreaterThanOrEqualTo(3);
        assertThat(tracker.history(path).get(0).pendingRecords()).isEqualTo(1_000);

        // Tiered by a job this tracker does not hear of (as Fluss's Flink tiering job would be): its commit shows once
        // the tracker's answer for the table is older than the table's freshness (1 s), since records were pending.
        try (TieringService external = new TieringService(
                serviceConfig("external-instance", Map.of()), TieringListener.NONE, RoundHooks.NONE, Clock.systemUTC())) {
            external.start();
            LakeSnapshot caughtUp = awaitTiered(path);
            eventually(Duration.ofSeconds(15), () -> {
                TableStatus shown = statusOf(tracker, path);
                assertThat(shown.lakeSnapshotId()).isGreaterThanOrEqualTo(caughtUp.getSnapshotId());
                assertThat(shown.pendingRecords()).isZero();
                assertThat(shown.state()).isEqualTo(TableState.UP_TO_DATE);
            });
        }
    }

    @Test
    void failingTablesShowBlockedAndRetryingWithTheirReasonWhileOthersStayUpToDate() throws Exception {
        TablePath altered = TablePath.of("fluss", "tracked_altered");
        TablePath flaky = TablePath.of("fluss", "tracked_flaky");
        TablePath healthy = TablePath.of("fluss", "tracked_healthy");
        for (TablePath path : List.of(altered, flaky, healthy)) {
            createTable(path, idTable(1, "1s"));
            append(path, ids(0, 100));
        }
        lake.catalog().alterTable(
                Identifier.create("fluss", "tracked_altered"), SchemaChange.addColumn("extra", org.apache.paimon.types.DataTypes.INT()), false);
        Path bucketDir = cluster.warehouse().resolve("fluss.db").resolve("tracked_flaky").resolve("bucket-0");
        Files.createDirectories(bucketDir.getParent());
        Files.writeString(bucketDir, "in the way");

        TableStatusTracker tracker =
                new TableStatusTracker(new ClusterObserver(fluss, lake, Clock.systemUTC()), Clock.systemUTC(), () -> true, 100, Duration.ofSeconds(10), Duration.ofSeconds(15));
        try (TieringService service = new TieringService(
                serviceConfig("failing-instance", Map.of("tiering.blocked-recheck-interval", "1s")), tracker, RoundHooks.NONE, Clock.systemUTC())) {
            service.start();
            awaitTiered(healthy);
            eventually(Duration.ofSeconds(60), () -> {
                tracker.refresh();
                TableStatus blocked = tracker.table(altered).orElseThrow();
                assertThat(blocked.state()).isEqualTo(TableState.BLOCKED);
                assertThat(blocked.reason()).contains("Lake table of fluss.tracked_altered was changed outside Fluss");
                TableStatus retrying = tracker.table(flaky).orElseThrow();
                assertThat(retrying.state()).isEqualTo(TableState.RETRYING);
                assertThat(retrying.activity().consecutiveFailures()).isGreaterThanOrEqualTo(2);
                assertThat(retrying.activity().nextRetryAt()).isNotNull();
                assertThat(tracker.table(healthy).orElseThrow().state()).isEqualTo(TableState.UP_TO_DATE);
            });
            Files.delete(bucketDir);
            awaitTiered(flaky);
            eventually(Duration.ofSeconds(30), () -> {
                tracker.refresh();
                assertThat(tracker.table(flaky).orElseThrow().state()).isEqualTo(TableState.UP_TO_DATE);
            });
        }
    }

    private static TableStatus statusOf(TableStatusTracker tracker, TablePath path) throws Exception {
        tracker.refresh();
        return tracker.table(path).orElseThrow();
    }

    /** The oldest pending record was appended between the two instants, so its age lies between these bounds. */
    private static void assertLatencyBetween(TableStatus status, Instant writeStarted, Instant writeEnded) {
        Duration atLeast = Duration.between(writeEnded, status.observedAt()).minusMillis(5);
        Duration atMost = Duration.between(writeStarted, status.observedAt()).plusMillis(5);
        assertThat(status.syncLatency()).isBetween(atLeast, atMost);
    }

    private static TableDescriptor descriptor(boolean lake) {
        return TableDescriptor.builder()
                .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
                .distributedBy(2, "id")
                .property("table.datalake.enabled", String.valueOf(lake))
                .property("table.datalake.freshness", "1s")
                .build();
    }
}
