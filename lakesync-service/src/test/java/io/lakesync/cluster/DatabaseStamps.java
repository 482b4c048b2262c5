package io.lakesync.cluster;

import io.lakesync.state.StateStore;
import io.lakesync.testing.ManualClock;
import java.time.Duration;

/** Time passing for what the database stamped, in tests: the stamps are aged, as its own clock cannot be moved. */
final class DatabaseStamps {

    private DatabaseStamps() {}

    /**
     * {@code elapsed} passes on the instances' {@code clock} and for the instances' stamps (start, heartbeat, stop),
     * and each column named {@code table.column} is aged by it too.
     */
    static void timePasses(ManualClock clock, StateStore store, Duration elapsed, String... columns) {
        clock.advance(elapsed);
        long ms = elapsed.toMillis();
        store.write(sql -> {
            sql.update("UPDATE lakesync_instance SET started_at = started_at - ?, heartbeat_at = heartbeat_at - ?, "
                    + "stopped_at = stopped_at - ?", ms, ms, ms);
            for (String column : columns) {
                String table = column.substring(0, column.indexOf('.'));
                String name = column.substring(column.indexOf('.') + 1);
                sql.update("UPDATE " + table + " SET " + name + " = " + name + " - ?", ms);
            }
            return null;
        });
    }
}
