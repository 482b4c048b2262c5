package io.lakesync.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.fluss.tiering.TableEpoch;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Handing back a table a stopped job still holds, against a coordinator that tracks tiering epochs. */
class TableReleaseTest {

    private final EpochCoordinator coordinator = new EpochCoordinator();

    @Test
    void reportsTheTableFailedUnderTheEpochTheCoordinatorNames() throws Exception {
        coordinator.epochs.put(42L, 7L);
        new TableRelease(coordinator).release(42);
        assertThat(coordinator.failedReports).containsExactly(new TableEpoch(42, -1), new TableEpoch(42, 7));
        assertThat(coordinator.coordinatorEpochs).containsOnly(EpochCoordinator.COORDINATOR_EPOCH);
        assertThat(coordinator.epochs).containsEntry(42L, 8L);
    }

    @Test
    void aTableTheCoordinatorDoesNotTrackIsLeftAlone() throws Exception {
        new TableRelease(coordinator).release(42);
        assertThat(coordinator.failedReports).containsExactly(new TableEpoch(42, -1));
    }

    @Test
    void askingForTheCurrentEpochChangesNothing() throws Exception {
        coordinator.epochs.put(42L, 7L);
        assertThat(new TableRelease(coordinator).currentEpoch(42)).contains(7L);
        assertThat(new TableRelease(coordinator).currentEpoch(43)).isEmpty();
        assertThat(coordinator.epochs).containsExactlyEntriesOf(Map.of(42L, 7L));
    }
}
