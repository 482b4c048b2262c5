package io.lakesync.usage;

import io.lakesync.tiering.capacity.RoundUsage;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** The usage of one table in one hour (UTC): rounds, CPU, memory, CU-hours, rows and bytes tiered. */
record HourlyUsage(
        Instant hour,
        String database,
        String table,
        long rounds,
        double cpuSeconds,
        double memoryGibSeconds,
        double cuHours,
        long rows,
        long bytes) {

    static HourlyUsage of(RoundUsage round) {
        return new HourlyUsage(
                round.endedAt().truncatedTo(ChronoUnit.HOURS),
                round.assignment().tablePath().getDatabaseName(),
                round.assignment().tablePath().getTableName(),
                1,
                round.cpuSeconds(),
                round.memoryGibSeconds(),
                round.cuSeconds() / 3600,
                round.rows(),
                round.bytes());
    }

    HourlyUsage plus(HourlyUsage other) {
        return new HourlyUsage(hour, database, table, rounds + other.rounds, cpuSeconds + other.cpuSeconds,
                memoryGibSeconds + other.memoryGibSeconds, cuHours + other.cuHours, rows + other.rows,
                bytes + other.bytes);
    }

    /** What identifies the row in the store: hour and table. */
    String key() {
        return hour.toEpochMilli() + "/" + database + "." + table;
    }
}
