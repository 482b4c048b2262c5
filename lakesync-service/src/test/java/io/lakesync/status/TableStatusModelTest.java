package io.lakesync.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.FailureKind;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

class TableStatusModelTest {

    private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");
    private static final TablePath PATH = TablePath.of("fluss", "orders");

    private static TableObservation seen(boolean enabled, Long snapshot, long tiered, long end, Instant oldest) {
        return new TableObservation(
                PATH, 7, enabled, Duration.ofMinutes(3), snapshot, snapshot == null ? null : NOW.minusSeconds(600),
                List.of(new BucketCheckpoint(null, 0, tiered, end)), oldest, NOW);
    }

    @Test
    void idleTableIsUpToDateWithZeroLatencyEvenIfItsCheckpointIsOld() {
        TableStatus status = TableStatusModel.derive(seen(true, 4L, 100, 100, null), EngineActivity.NONE, true, null);
        assertThat(status.state()).isEqualTo(TableState.UP_TO_DATE);
        assertThat(status.syncLatency()).isZero();
        assertThat(status.checkpointAge()).isZero();
        assertThat(status.pendingRecords()).isZero();
    }

    @Test
    void latencyIsTheAgeOfTheOldestPendingRecordAndLaggingPastFreshness() {
        TableStatus within = TableStatusModel.derive(seen(true, 4L, 100, 150, NOW.minusSeconds(60)), EngineActivity.NONE, true, null);
        assertThat(within.state()).isEqualTo(TableState.UP_TO_DATE);
        assertThat(within.syncLatency()).isEqualTo(Duration.ofSeconds(60));
        assertThat(within.checkpointAge()).isEqualTo(Duration.ofSeconds(600));
        assertThat(within.pendingRecords()).isEqualTo(50);

        TableStatus lagging = TableStatusModel.derive(seen(true, 4L, 100, 150, NOW.minusSeconds(181)), EngineActivity.NONE, true, null);
        assertThat(lagging.state()).isEqualTo(TableState.LAGGING);
        assertThat(lagging.reason()).contains("181 s").contains("180 s");
    }

    @Test
    void failuresOutrankLagAndBlockedOutranksRetrying() {
        EngineActivity retrying = after(EngineActivity.NONE, ActivityChange.failed(FailureKind.TRANSIENT, "disk full", NOW.plusSeconds(2)));
        EngineActivity blocked = after(EngineActivity.NONE, ActivityChange.failed(FailureKind.BLOCKED, "schema changed outside Fluss", null));
        TableObservation lagging = seen(true, 4L, 100, 150, NOW.minusSeconds(999));
        assertThat(TableStatusModel.derive(lagging, retrying, true, null).state()).isEqualTo(TableState.RETRYING);
        assertThat(TableStatusModel.derive(lagging, retrying, true, null).reason()).contains("disk full");
        assertThat(TableStatusModel.derive(lagging, blocked, true, null).state()).isEqualTo(TableState.BLOCKED);
        assertThat(TableStatusModel.derive(lagging, after(blocked, ActivityChange.succeeded(1, 1, 1, Duration.ofSeconds(1), NOW)), true, null).state())
                .isEqualTo(TableState.LAGGING);
    }

    @Test
    void disabledTablesAndASwitchedOffServiceShowDisabled() {
        assertThat(TableStatusModel.derive(seen(false, null, -1, 0, null), EngineActivity.NONE, true, null).state())
                .isEqualTo(TableState.DISABLED);
        TableStatus off = TableStatusModel.derive(seen(true, 4L, 100, 100, null), EngineActivity.NONE, false, null);
        assertThat(off.state()).isEqualTo(TableState.DISABLED);
        assertThat(off.reason()).contains("switched off");
    }

    @Test
    void neverTieredTableIsInitializingAndAgesFromWhenLagWasFirstSeen() {
        TableStatus status = TableStatusModel.derive(
                seen(true, null, -1, 80, NOW.minusSeconds(5)), after(EngineActivity.NONE, ActivityChange.started()), true, NOW.minusSeconds(30));
        assertThat(status.state()).isEqualTo(TableState.INITIALIZING);
        assertThat(status.reason()).contains("running");
        assertThat(status.checkpointAge()).isEqualTo(Duration.ofSeconds(30));
        assertThat(status.pendingRecords()).isEqualTo(80);
    }

    @Test
    void pendingRecordsWhoseOldestTimeIsUnknownAreNeverUpToDateAndAgeWithTheCheckpoint() {
        TableObservation recentCheckpoint = new TableObservation(PATH, 7, true, Duration.ofMinutes(3), 4L,
                NOW.minusSeconds(60), List.of(new BucketCheckpoint(null, 0, 100, 150)), null, NOW);
        TableStatus unknown = TableStatusModel.derive(recentCheckpoint, EngineActivity.NONE, true, null);
        assertThat(unknown.state()).isEqualTo(TableState.UNKNOWN);
        assertThat(unknown.syncLatency()).as("the checkpoint's age stands in").isEqualTo(Duration.ofSeconds(60));
        assertThat(unknown.reason()).isEqualTo("50 records pending, and the time of the oldest one cannot be read, so "
                + "the sync latency is unknown; the lake checkpoint is 60 s old.");
        assertThat(TableStatusModel.derive(recentCheckpoint, after(EngineActivity.NONE, ActivityChange.started()), true,
                null).state()).isEqualTo(TableState.SYNCING);

        TableStatus oldCheckpoint = TableStatusModel.derive(seen(true, 4L, 100, 150, null), EngineActivity.NONE, true, null);
        assertThat(oldCheckpoint.state()).isEqualTo(TableState.LAGGING);
        assertThat(oldCheckpoint.syncLatency()).isEqualTo(Duration.ofSeconds(600));
        assertThat(oldCheckpoint.reason()).startsWith("Time since the lake checkpoint 600 s exceeds freshness 180 s");
    }

    private static EngineActivity after(EngineActivity activity, ActivityChange change) {
        return change.applyTo(activity, "local");
    }
}
