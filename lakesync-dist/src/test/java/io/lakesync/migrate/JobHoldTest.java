package io.lakesync.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * When the tables of stopped jobs may be handed back: at once when Flink showed the jobs ended; when their
 * cluster went away instead, once the coordinator re-queued every waiting table or its tiering timeout passed.
 */
class JobHoldTest {

    private static final long STOPPED_AT = 1_000_000;

    private final EpochCoordinator coordinator = new EpochCoordinator();

    @Test
    void jobsFlinkShowedEndedHoldNothing() throws Exception {
        assertThat(hold(JobsStopped.How.ENDED_IN_FLINK, 0).over(List.of(1L))).isPresent();
    }

    @Test
    void aVanishedJobMayHoldATableUntilTheCoordinatorReQueuedIt() throws Exception {
        coordinator.epochs.putAll(Map.of(1L, 4L, 2L, 9L));
        JobHold hold = hold(JobsStopped.How.CLUSTER_SHUT_DOWN, 30_000);
        assertThat(hold.over(List.of(1L, 2L))).isEmpty();

        coordinator.epochs.put(1L, 5L);
        assertThat(hold.over(List.of(1L, 2L))).as("table 2 is still at its epoch from before the cancel").isEmpty();
        assertThat(hold.over(List.of(1L))).contains("Fluss's coordinator shows no table held by the stopped job any "
                + "more.");
    }

    @Test
    void afterTheCoordinatorsTimeoutAVanishedJobHoldsNothing() throws Exception {
        coordinator.epochs.put(1L, 4L);
        assertThat(hold(JobsStopped.How.ALREADY_GONE, Migration.COORDINATOR_TIMEOUT.toMillis()).over(List.of(1L)))
                .isEmpty();
        assertThat(hold(JobsStopped.How.ALREADY_GONE, Migration.COORDINATOR_TIMEOUT.toMillis() + 1).over(List.of(1L)))
                .contains("Fluss's tiering timeout has passed since the job stopped: the coordinator took back every "
                        + "table it held.");
    }

    /** A hold of jobs stopped at STOPPED_AT with the coordinator's epochs as they are now, asked {@code later}. */
    private JobHold hold(JobsStopped.How how, long later) {
        JobsStopped stopped = new JobsStopped(STOPPED_AT, how, Map.copyOf(coordinator.epochs));
        Clock clock = Clock.fixed(Instant.ofEpochMilli(STOPPED_AT + later), ZoneOffset.UTC);
        return new JobHold(new TableRelease(coordinator), stopped, clock);
    }
}
