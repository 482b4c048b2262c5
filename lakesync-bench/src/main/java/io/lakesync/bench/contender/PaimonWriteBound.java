package io.lakesync.bench.contender;

import io.lakesync.bench.cluster.LakeTables;
import io.lakesync.bench.data.BenchRecord;
import io.lakesync.bench.data.BenchSchema;
import io.lakesync.bench.data.DataSpec;
import io.lakesync.bench.data.LogData;
import io.lakesync.bench.data.PkOps;
import io.lakesync.bench.data.PkState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.types.RowKind;

/**
 * The write bound: writes the rows a tiering writes, generated in this process instead of read from Fluss,
 * into a scratch Paimon table created with the lake table's schema and options (write-only, as the tiering
 * writes), with one writer thread per core, then commits once. A primary-key table gets the snapshot rows (+I) and then the changelog of the
 * tail (+I, -U/+U, -D), as a tiering from KV snapshot plus changelog writes them.
 */
final class PaimonWriteBound implements Bound {

    private static final int BATCH = 1024;
    private static final int QUEUED_BATCHES = 16;
    /** Position of {@code __bucket} (then {@code __offset}) in a Paimon row of a benchmark table. */
    private static final int BUCKET_FIELD = 6;

    private final Map<String, String> lakeOptions;
    private final TablePath source;
    private final TablePath scratch;
    private final DataSpec spec;
    private final Path ioDir;
    private Catalog catalog;
    private FileStoreTable table;
    private final LongAdder rowsWritten = new LongAdder();

    PaimonWriteBound(
            Map<String, String> lakeOptions, TablePath source, TablePath scratch, DataSpec spec, Path workDir) {
        this.lakeOptions = lakeOptions;
        this.source = source;
        this.scratch = scratch;
        this.spec = spec;
        this.ioDir = workDir.resolve("paimon-io");
    }

    @Override
    public void prepare() throws Exception {
        Files.createDirectories(ioDir);
        catalog = LakeTables.openCatalog(lakeOptions);
        TableSchema schema = ((FileStoreTable) catalog.getTable(LakeTables.identifier(source))).schema();
        Map<String, String> options = new HashMap<>(schema.options());
        // The scratch table lives where the catalog puts it, not at the lake table's path.
        options.remove(CoreOptions.PATH.key());
        catalog.createDatabase(scratch.getDatabaseName(), true);
        catalog.createTable(
                LakeTables.identifier(scratch),
                new Schema(
                        schema.fields(),
                        schema.partitionKeys(),
                        schema.primaryKeys(),
                        options,
                        schema.comment()),
                false);
        table = ((FileStoreTable) catalog.getTable(LakeTables.identifier(scratch))).copy(Map.of("write-only", "true"));
    }

    @Override
    public Map<String, Object> run() throws Exception {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        List<CommitMessage> messages =
                spec.primaryKey() ? writePrimaryKey(builder) : writeLog(builder);
        try (BatchTableCommit commit = builder.newCommit()) {
            commit.commit(messages);
        }
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("rowsWritten", rowsWritten.sum());
        return figures;
    }

    /** Each writer writes every {@code writers()}-th row. */
    private List<CommitMessage> writeLog(BatchWriteBuilder builder) throws Exception {
        long now = System.currentTimeMillis();
        int writers = writers();
        List<Callable<List<CommitMessage>>> tasks = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int first = w;
            tasks.add(() -> {
                try (BatchTableWrite write = newWrite(builder)) {
                    for (long i = first; i < spec.rows(); i += writers) {
                        BenchRecord row = LogData.row(spec.seed(), i);
                        int bucket = (int) (i % spec.buckets());
                        write.write(BenchSchema.toPaimon(row, RowKind.INSERT, bucket, i / spec.buckets(), now));
                        rowsWritten.increment();
                    }
                    return write.prepareCommit();
                }
            });
        }
        return runAll(tasks);
    }

    /**
     * Writer threads: one per core (at most one per bucket), like a tiering running one writer per core. Each
     * Paimon writer takes a write buffer of its own, so more writers than cores only add memory pressure.
     */
    private int writers() {
        return Math.max(1, Math.min(spec.buckets(), Runtime.getRuntime().availableProcessors()));
    }

    /**
     * The changelog is produced in order by one thread (it depends on the state before each operation) and
     * handed, in batches, to the writers; bucket b always goes to writer b mod writers, so every bucket has a
     * single writer as in a tiering.
     */
    private List<CommitMessage> writePrimaryKey(BatchWriteBuilder builder) throws Exception {
        long now = System.currentTimeMillis();
        int writerCount = writers();
        List<BlockingQueue<List<GenericRow>>> queues = new ArrayList<>();
        List<Callable<List<CommitMessage>>> tasks = new ArrayList<>();
        for (int w = 0; w < writerCount; w++) {
            BlockingQueue<List<GenericRow>> queue = new ArrayBlockingQueue<>(QUEUED_BATCHES);
            queues.add(queue);
            tasks.add(() -> {
                try (BatchTableWrite write = newWrite(builder)) {
                    for (List<GenericRow> batch = queue.take(); !batch.isEmpty(); batch = queue.take()) {
                        for (GenericRow row : batch) {
                            write.write(row);
                        }
                        rowsWritten.add(batch.size());
                    }
                    return write.prepareCommit();
                }
            });
        }
        ExecutorService pool = Executors.newFixedThreadPool(writerCount, daemon("write-bound"));
        try (BatchTableWrite router = builder.newWrite()) {
            List<Future<List<CommitMessage>>> writers = new ArrayList<>();
            tasks.forEach(task -> writers.add(pool.submit(task)));
            List<List<GenericRow>> batches = new ArrayList<>();
            for (int w = 0; w < writerCount; w++) {
                batches.add(new ArrayList<>(BATCH));
            }
            long[] offsets = new long[spec.buckets()];
            PkState.ChangelogSink sink = (kind, record) -> {
                GenericRow row = BenchSchema.toPaimon(record, kind, 0, 0, now);
                int bucket = router.getBucket(row);
                row.setField(BUCKET_FIELD, bucket);
                row.setField(BUCKET_FIELD + 1, offsets[bucket]++);
                int writer = bucket % writerCount;
                batches.get(writer).add(row);
                if (batches.get(writer).size() == BATCH) {
                    hand(queues.get(writer), batches.get(writer), writers);
                    batches.set(writer, new ArrayList<>(BATCH));
                }
            };
            PkOps ops = new PkOps(spec.seed());
            PkState state = new PkState(spec.seed(), spec.rows());
            for (long i = 0; i < spec.baseRows(); i++) {
                state.apply(ops.next());
            }
            state.forEachLive(sink);
            for (long i = spec.baseRows(); i < spec.rows(); i++) {
                state.apply(ops.next(), sink);
            }
            for (int w = 0; w < writerCount; w++) {
                if (!batches.get(w).isEmpty()) {
                    hand(queues.get(w), batches.get(w), writers);
                }
                hand(queues.get(w), List.of(), writers); // end of input
            }
            List<CommitMessage> messages = new ArrayList<>();
            for (Future<List<CommitMessage>> writer : writers) {
                messages.addAll(writer.get());
            }
            return messages;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Queues a batch for its writer; fails instead of waiting forever if a writer failed. */
    private static void hand(
            BlockingQueue<List<GenericRow>> queue, List<GenericRow> batch, List<Future<List<CommitMessage>>> writers)
            throws Exception {
        while (!queue.offer(batch, 1, TimeUnit.SECONDS)) {
            for (Future<List<CommitMessage>> writer : writers) {
                if (writer.isDone()) {
                    writer.get(); // throws the writer's failure
                }
            }
        }
    }

    private BatchTableWrite newWrite(BatchWriteBuilder builder) {
        BatchTableWrite write = builder.newWrite();
        write.withIOManager(IOManager.create(ioDir.toString()));
        return write;
    }

    private static List<CommitMessage> runAll(List<Callable<List<CommitMessage>>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size(), daemon("write-bound"));
        try {
            List<CommitMessage> messages = new ArrayList<>();
            for (Future<List<CommitMessage>> done : pool.invokeAll(tasks)) {
                messages.addAll(done.get());
            }
            return messages;
        } finally {
            pool.shutdownNow();
        }
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public void close() throws Exception {
        if (catalog != null) {
            catalog.close();
        }
    }
}
