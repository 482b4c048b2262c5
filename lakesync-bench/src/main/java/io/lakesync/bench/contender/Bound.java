package io.lakesync.bench.contender;

import java.util.Map;

/** One half of what any tiering must do, run alone to completion in a contender child process. */
interface Bound extends AutoCloseable {

    /** Everything before the timed part: connections, metadata, table creation. */
    void prepare() throws Exception;

    /** The timed part; returns its figures for the report. */
    Map<String, Object> run() throws Exception;
}
