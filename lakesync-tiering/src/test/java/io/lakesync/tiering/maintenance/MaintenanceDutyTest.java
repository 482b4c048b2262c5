package io.lakesync.tiering.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.testing.ManualClock;
import io.lakesync.tiering.TieringListener;
import io.lakesync.tiering.lake.LakeTableKind;
import io.lakesync.tiering.round.RoundPhases;
import io.lakesync.tiering.round.RoundResult;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a committed round sets off on the maintenance executor before a table's first pass is due. The duty gets
 * no Fluss client and no lake tables here: the round's own thread must need neither.
 */
class MaintenanceDutyTest {

    private static final Instant START = Instant.parse("2026-12-07T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void anAppendTablesRoundSetsOffNothingButTheScheduleWrite() throws Exception {
        RecordingExecutor executor = new RecordingExecutor();
        TieringListener listener = duty(executor).around(new TieringListener() {});

        listener.roundFinished(committed(new TableAssignment(1, TablePath.of("fluss", "log"), 1), LakeTableKind.APPEND));
        listener.roundFinished(committed(new TableAssignment(2, TablePath.of("fluss", "log2"), 1), LakeTableKind.APPEND));

        // One write of the schedule for both new tables; no sorted-run check, no pass.
        assertThat(executor.tasks).hasSize(1);
    }

    @Test
    void aPrimaryKeyTablesFirstRoundChecksItsSortedRuns() throws Exception {
        RecordingExecutor executor = new RecordingExecutor();
        TieringListener listener = duty(executor).around(new TieringListener() {});

        listener.roundFinished(
                committed(new TableAssignment(3, TablePath.of("fluss", "pk"), 1), LakeTableKind.PRIMARY_KEY));

        // The schedule write and the check of the buckets' sorted runs.
        assertThat(executor.tasks).hasSize(2);
    }

    @Test
    void theScheduleWriteWaitsBeforeItReachesTheExecutor() throws Exception {
        RecordingExecutor executor = new RecordingExecutor();
        MaintenanceDuty duty = new MaintenanceDuty(new Configuration(), null, null, dir, dir.resolve("schedule.properties"),
                executor, MaintenanceDuty.delayedWriter(executor), new ManualClock(START));
        TieringListener listener = duty.around(new TieringListener() {});

        listener.roundFinished(committed(new TableAssignment(1, TablePath.of("fluss", "log"), 1), LakeTableKind.APPEND));

        // The write is delayed, so that the tables of the next rounds go along with it.
        assertThat(executor.tasks).isEmpty();
        // Close writes what is still waiting.
        duty.close();
        assertThat(dir.resolve("schedule.properties")).content().contains("1=");
    }

    private MaintenanceDuty duty(RecordingExecutor executor) {
        // The schedule written through the executor at once, so its writes show among the tasks.
        return new MaintenanceDuty(new Configuration(), null, null, dir, dir.resolve("schedule.properties"), executor,
                executor, new ManualClock(START));
    }

    private static RoundResult committed(TableAssignment table, LakeTableKind kind) {
        return new RoundResult(table, START, Duration.ofMillis(50), 1L, false, List.of(), 1, 100, RoundPhases.none(),
                kind);
    }

    /** Keeps what it is given to run, and runs none of it. */
    private static final class RecordingExecutor extends AbstractExecutorService {
        final List<Runnable> tasks = new ArrayList<>();

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        @Override
        public void shutdown() {}

        @Override
        public List<Runnable> shutdownNow() {
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }
}
