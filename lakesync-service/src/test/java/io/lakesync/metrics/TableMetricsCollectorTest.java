package io.lakesync.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.status.BucketCheckpoint;
import io.lakesync.status.EngineActivity;
import io.lakesync.status.TableObservation;
import io.lakesync.status.TableStatus;
import io.lakesync.status.TableStatusModel;
import io.lakesync.tiering.maintenance.LakeFigures;
import io.lakesync.tiering.maintenance.MaintenanceReport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

class TableMetricsCollectorTest {

    @Test
    void exposesFlussNamedPerTableMetricsInPrometheusText() {
        Instant now = Instant.parse("2026-11-30T10:00:00Z");
        TableStatus status = TableStatusModel.derive(
                new TableObservation(
                        TablePath.of("shop", "orders"), 3, true, Duration.ofSeconds(30), 12L, now.minusSeconds(40),
                        List.of(new BucketCheckpoint(null, 0, 70, 100), new BucketCheckpoint(null, 1, 10, 10)),
                        now.minusSeconds(45), now),
                EngineActivity.NONE,
                true,
                null);
        String text = new TableMetricsCollector(() -> List.of(status), Clock.fixed(now.plusSeconds(5), ZoneOffset.UTC)).scrapeText();
        assertThat(text)
                .contains("lakesync_table_tierLag{database=\"shop\",table=\"orders\"} 45000")
                .contains("lakesync_table_pendingRecords{database=\"shop\",table=\"orders\"} 30")
                .contains("lakesync_table_lakeSnapshotId{database=\"shop\",table=\"orders\"} 12")
                .contains("lakesync_table_tieredTimestamp{database=\"shop\",table=\"orders\"} " + (double) now.minusSeconds(40).toEpochMilli())
                .contains("lakesync_table_failuresTotal{database=\"shop\",table=\"orders\"} 0")
                .contains("lakesync_table_state{database=\"shop\",state=\"LAGGING\",table=\"orders\"} 1")
                .contains("lakesync_table_state{database=\"shop\",state=\"UP_TO_DATE\",table=\"orders\"} 0")
                .contains("lakesync_table_observationAge{database=\"shop\",table=\"orders\"} 5000")
                .contains("lakesync_table_stale{database=\"shop\",table=\"orders\"} 0")
                .doesNotContain("lakesync_table_tierDuration{");
        for (TableMetric metric : TableMetric.values()) {
            if (metric.read(status, now.plusSeconds(5)) != null) {
                assertThat(text).contains("# HELP " + metric.prometheusName() + " " + metric.help());
            } else {
                assertThat(text).as("a metric without a value").doesNotContain(metric.prometheusName() + "{");
            }
        }
        assertThat(TableMetric.TIER_DURATION_MS.read(status, now)).as("no round yet").isNull();
        assertThat(TableMetric.LAKE_DATA_FILES.read(status, now)).as("no maintenance pass yet").isNull();
    }

    @Test
    void alertRulesSeeTheSameCatalogueValuesByIdOmittingThoseWithoutValue() {
        Instant now = Instant.parse("2026-11-30T10:00:00Z");
        TableStatus status = TableStatusModel.derive(
                new TableObservation(TablePath.of("shop", "orders"), 3, true, Duration.ofSeconds(30), null, null,
                        List.of(new BucketCheckpoint(null, 0, -1, 10)), now.minusSeconds(7), now),
                EngineActivity.NONE, true, null);

        Map<String, Double> values = TableMetric.readAll(status, now.plusSeconds(2));

        assertThat(values)
                .containsEntry("syncLatencyMs", 7000.0)
                .containsEntry("pendingRecords", 10.0)
                .containsEntry("freshnessMs", 30_000.0)
                .containsEntry("observationAgeMs", 2000.0)
                .containsEntry("stateUnknown", 0.0)
                .doesNotContainKeys("tieredTimestamp", "lakeSnapshotId", "tierDurationMs");
        assertThat(TableMetric.byName("tierLag")).contains(TableMetric.SYNC_LATENCY_MS);
        assertThat(TableMetric.byName("lakesync_table_pendingRecords")).contains(TableMetric.PENDING_RECORDS);
        assertThat(TableMetric.byName("latency")).isEmpty();
    }

    @Test
    void aTableThatCannotBeObservedStaysListedWithItsObservationAgeGrowing() {
        Instant seen = Instant.parse("2026-11-30T10:00:00Z");
        TableStatus last = TableStatusModel.derive(
                new TableObservation(TablePath.of("shop", "orders"), 3, true, Duration.ofSeconds(30), 12L, seen,
                        List.of(new BucketCheckpoint(null, 0, 100, 100)), null, seen),
                EngineActivity.NONE, true, null);
        Instant now = seen.plusSeconds(20);
        TableStatus unknown = TableStatusModel.unobserved(TablePath.of("shop", "orders"), last, EngineActivity.NONE,
                "Connection refused", seen.plusSeconds(5), now, Duration.ofSeconds(15));

        String text = new TableMetricsCollector(() -> List.of(unknown), Clock.fixed(now, ZoneOffset.UTC)).scrapeText();
        assertThat(text)
                .contains("lakesync_table_observationAge{database=\"shop\",table=\"orders\"} 20000")
                .contains("lakesync_table_stale{database=\"shop\",table=\"orders\"} 1")
                .contains("lakesync_table_state{database=\"shop\",state=\"UNKNOWN\",table=\"orders\"} 1")
                .contains("lakesync_table_lakeSnapshotId{database=\"shop\",table=\"orders\"} 12");
    }

    @Test
    void exposesTheLakeTableShapeAfterTheLastMaintenancePass() {
        Instant now = Instant.parse("2026-11-30T10:00:00Z");
        MaintenanceReport pass = new MaintenanceReport(TablePath.of("shop", "orders"), now, Duration.ofSeconds(2),
                new LakeFigures(8, 8_000, 2, 12), 4, 3, 1, 5_000, 9_000, now, now.minusSeconds(60), null);
        EngineActivity activity = new EngineActivity(false, 0, null, null, null, 1, 0, 10, 100, 2, null, null, 0, null, pass);
        TableStatus status = TableStatusModel.derive(
                new TableObservation(TablePath.of("shop", "orders"), 3, true, Duration.ofSeconds(30), 12L, now,
                        List.of(new BucketCheckpoint(null, 0, 100, 100)), null, now),
                activity, true, null);

        String text = new TableMetricsCollector(() -> List.of(status), Clock.fixed(now, ZoneOffset.UTC)).scrapeText();
        assertThat(text)
                .contains("lakesync_table_lakeDataFiles{database=\"shop\",table=\"orders\"} 8")
                .contains("lakesync_table_lakeAverageFileBytes{database=\"shop\",table=\"orders\"} 1000")
                .contains("lakesync_table_lakeSmallFileRatio{database=\"shop\",table=\"orders\"} 0.25")
                .contains("lakesync_table_lakeSnapshotsKept{database=\"shop\",table=\"orders\"} 12")
                .contains("lakesync_table_bytesReclaimedTotal{database=\"shop\",table=\"orders\"} 9000")
                .contains("lakesync_table_lastCompactionTimestamp{database=\"shop\",table=\"orders\"} " + (double) now.toEpochMilli());
    }
}
