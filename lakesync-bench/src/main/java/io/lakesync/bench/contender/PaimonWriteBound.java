package io.lakesync.bench.contender;

import io.lakesync.bench.cluster.LakeTables;
import io.lakesync.bench.data.BenchRecord;
import io.lakesync.bench.data.BenchSchema;
import io.lakesync.bench.data.DataSpec;
import io.lakesync.bench.data.LogData;
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
 * writes), with one writer thread per core, then commits each table once. A primary-key table gets the snapshot
 * rows (+I) and then the changelog of the tail (+I, -U/+U, -D), as a tiering from KV snapshot plus changelog
 * writes them. Several tables (many-tables) are written and committed one table per task, one task per core at a
 * time, each by its task's thread.
 */
final class PaimonWriteBound implements Bound {

    private static final int BATCH = 1024;
    private static final int QUEUED_BATCHES = 16;
    /** Position of {@code __bucket} (then {@code __offset}) in a Paimon row of a benchmark table. */
    private static final int BUCKET_FIELD = 6;

    private final Map<String, String> lakeOptions;
    private final List<TablePath> sources;
    private final DataSpec firstSpec;
    private final Path ioDir;
    private Catalog catalog;
    private final List<FileStoreTable> tables = new ArrayList<>();
    private final LongAdder rowsWritten = new LongAdder();

    /** {@code firstSpec} is the first table's; table i holds {@code firstSpec.ofTable(i)}. */
    PaimonWriteBound(Map<String, String> lakeOptions, List<TablePath> sources, DataSpec firstSpec, Path workDir) {
        this.lakeOptions = lakeOptions;
        this.sources = sources;
        this.firstSpec = firstSpec;
        this.ioDir = workDir.resolve("paimon-io");
    }

    @Override
    public void prepare() throws Exception {
        Files.createDirectories(ioDir);
        catalog = LakeTables.openCatalog(lakeOptions);
        for (TablePath source : sources) {
            tables.add(createScratch(source));
        }
    }

    private FileStoreTable createScratch(TablePath source) throws Exception {
        TablePath scratch = LakeTables.scratchOf(source);
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
        return ((FileStoreTable) catalog.getTable(LakeTables.identifier(scratch))).copy(Map.of("write-only", "true"));
    }

    @Override
    public Map<String, Object> run() throws Exception {
        if (tables.size() == 1) {
            writeAndCommit(tables.get(0), firstSpec, writers(firstSpec));
        } else {
            List<Callable<Void>> perTable = new ArrayList<>();
            for (int i = 0; i < tables.size(); i++) {
                FileStoreTable table = tables.get(i);
                DataSpec spec = firstSpec.ofTable(i);
                perTable.add(() -> {
                    writeAndCommit(table, spec, 1);
                    return null;
                });
            }
            runAll(perTable, Runtime.getRuntime().availableProcessors());
        }
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("rowsWritten", rowsWritten.sum());
        return figures;
    }

    private void writeAndCommit(FileStoreTable table, DataSpec spec, int writers) throws Exception {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        List<CommitMessage> messages =
                spec.primaryKey() ? writePrimaryKey(builder, spec, writers) : writeLog(builder, spec, writers);
        try (BatchTableCommit commit = builder.newCommit()) {
            commit.commit(messages);
        }
    }

    /** Each writer writes every {@code writers}-th row. */
    private List<CommitMessage> writeLog(BatchWriteBuilder builder, DataSpec spec, int writers) throws Exception {
        long now = System.currentTimeMillis();
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
        return runAll(tasks, tasks.size()).stream().flatMap(List::stream).toList();
    }

    /**
     * Writer threads: one per core (at most one per bucket), like a tiering running one writer per core. Each
     * Paimon writer takes a write buffer of its own, so more writers than cores only add memory pressure.
     */
    private static int writers(DataSpec spec) {
        return Math.max(1, Math.min(spec.buckets(), Runtime.getRuntime().availableProcessors()));
    }

    /**
     * The changelog is produced in order by one thread (it depends on the state before each operation) and
     * handed, in batches, to the writers; bucket b always goes to writer b mod writers, so every bucket has a
     * single writer as in a tiering.
     */
    private List<CommitMessage> writePrimaryKey(BatchWriteBuilder builder, DataSpec spec, int writerCount)
            throws Exception {
        long now = System.currentTimeMillis();
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
            PkState.tieredChangelog(spec, sink);
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

    static <T> List<T> runAll(List<Callable<T>> tasks, int threads) throws Exception {
        if (tasks.size() == 1) {
            return List.of(tasks.get(0).call());
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, daemon("write-bound"));
        try {
            List<T> results = new ArrayList<>();
            for (Future<T> done : pool.invokeAll(tasks)) {
                results.add(done.get());
            }
            return results;
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
