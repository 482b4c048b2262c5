package io.lakesync.bench.data;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.TablePath;

/** Appends generated log rows at a fixed total rate, round-robin over log tables, until stopped. */
public final class TrickleWriter {

    private static final long TICK_MILLIS = 10;

    private TrickleWriter() {}

    /**
     * Appends {@code rate} rows per second in total (rows {@code LogData.row(seed, i)}) until {@code stop} is set,
     * then flushes; counts the rows and their logical bytes.
     */
    public static void run(Connection connection, List<TablePath> tables, long rate, long seed, AtomicBoolean stop,
            AtomicLong written, AtomicLong bytes) throws Exception {
        List<Table> handles = new ArrayList<>();
        List<AppendWriter> writers = new ArrayList<>();
        try {
            for (TablePath path : tables) {
                Table table = connection.getTable(path);
                handles.add(table);
                writers.add(table.newAppend().createWriter());
            }
            long start = System.nanoTime();
            while (!stop.get()) {
                long due = (System.nanoTime() - start) * rate / 1_000_000_000L;
                for (long i = written.get(); i < due; i++) {
                    BenchRecord row = LogData.row(seed, i);
                    writers.get((int) (i % writers.size())).append(BenchSchema.toFluss(row));
                    bytes.addAndGet(row.logicalBytes());
                    written.incrementAndGet();
                }
                Thread.sleep(TICK_MILLIS);
            }
            for (AppendWriter w : writers) {
                w.flush();
            }
        } finally {
            for (Table t : handles) {
                t.close();
            }
        }
    }
}
