package io.lakesync.migrate;

import io.lakesync.verify.TableReport;

/**
 * How one table moved from the Flink job to lakesync.
 *
 * @param lastByFlink the newest tiering snapshot committed before the job stopped, -1 if none
 * @param firstByLakesync the first tiering snapshot committed after it, -1 if lakesync had nothing to tier
 * @param takeOverMillis from the job's stop to {@code firstByLakesync}, -1 without one
 * @param verification {@code lakesync verify} of the table after the take-over
 */
public record TakeOver(
        String table, long lastByFlink, long firstByLakesync, long takeOverMillis, TableReport verification) {}
