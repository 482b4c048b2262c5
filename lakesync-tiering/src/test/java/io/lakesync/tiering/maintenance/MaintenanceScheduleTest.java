package io.lakesync.tiering.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.testing.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MaintenanceScheduleTest {

    private static final Duration INTERVAL = Duration.ofMinutes(10);
    private static final Instant START = Instant.parse("2026-12-06T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void aTableSeenBeforeARestartKeepsItsFirstPassTime() {
        ManualClock clock = new ManualClock(START);
        Path file = dir.resolve("tiering/maintenance-schedule.properties");
        assertThat(new MaintenanceSchedule(file, clock, Runnable::run).nextPass(7, INTERVAL)).isEqualTo(START.plus(INTERVAL));

        // Restarted every 30 s: the first pass stays where it was, instead of moving 10 minutes on each time.
        for (int restart = 0; restart < 25; restart++) {
            clock.advance(Duration.ofSeconds(30));
            assertThat(new MaintenanceSchedule(file, clock, Runnable::run).nextPass(7, INTERVAL)).isEqualTo(START.plus(INTERVAL));
        }
        assertThat(clock.instant()).isAfter(START.plus(INTERVAL));
    }

    @Test
    void aPassRecordsTheNextOneAndOtherTablesKeepTheirOwn() {
        ManualClock clock = new ManualClock(START);
        Path file = dir.resolve("maintenance-schedule.properties");
        MaintenanceSchedule schedule = new MaintenanceSchedule(file, clock, Runnable::run);
        schedule.nextPass(1, INTERVAL);
        clock.advance(Duration.ofMinutes(3));
        schedule.nextPass(2, INTERVAL);
        schedule.record(1, START.plus(Duration.ofHours(1)));

        MaintenanceSchedule restarted = new MaintenanceSchedule(file, clock, Runnable::run);
        assertThat(restarted.nextPass(1, INTERVAL)).isEqualTo(START.plus(Duration.ofHours(1)));
        assertThat(restarted.nextPass(2, INTERVAL)).isEqualTo(START.plus(Duration.ofMinutes(13)));
    }

    @Test
    void recordsThatComeWhileAWriteWaitsAreWrittenWithItOffTheRecordingThread() {
        ManualClock clock = new ManualClock(START);
        Path file = dir.resolve("maintenance-schedule.properties");
        Deque<Runnable> writes = new ArrayDeque<>();
        MaintenanceSchedule schedule = new MaintenanceSchedule(file, clock, writes::add);

        for (long table = 1; table <= 200; table++) {
            schedule.nextPass(table, INTERVAL);
        }

        assertThat(file).doesNotExist();
        assertThat(writes).hasSize(1);
        writes.poll().run();
        MaintenanceSchedule restarted = new MaintenanceSchedule(file, clock, Runnable::run);
        clock.advance(Duration.ofMinutes(1));
        assertThat(restarted.nextPass(1, INTERVAL)).isEqualTo(START.plus(INTERVAL));
        assertThat(restarted.nextPass(200, INTERVAL)).isEqualTo(START.plus(INTERVAL));

        // The next record asks for a write of its own; one the writer never ran is written by flush.
        schedule.record(7, START.plus(Duration.ofHours(2)));
        assertThat(writes).hasSize(1);
        schedule.flush();
        assertThat(new MaintenanceSchedule(file, clock, Runnable::run).nextPass(7, INTERVAL))
                .isEqualTo(START.plus(Duration.ofHours(2)));
    }

    @Test
    void anUnreadableFileSchedulesAfreshAndIsWrittenAgain() throws Exception {
        ManualClock clock = new ManualClock(START);
        Path file = dir.resolve("maintenance-schedule.properties");
        Files.writeString(file, "5=not-a-time\n6=\\u12");

        MaintenanceSchedule schedule = new MaintenanceSchedule(file, clock, Runnable::run);

        assertThat(schedule.nextPass(5, INTERVAL)).isEqualTo(START.plus(INTERVAL));
        assertThat(new MaintenanceSchedule(file, clock, Runnable::run).nextPass(5, INTERVAL)).isEqualTo(START.plus(INTERVAL));
    }
}
