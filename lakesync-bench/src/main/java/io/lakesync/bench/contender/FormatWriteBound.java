package io.lakesync.bench.contender;

import io.lakesync.bench.cluster.LakeTables;
import io.lakesync.bench.data.BenchSchema;
import io.lakesync.bench.data.DataSpec;
import io.lakesync.bench.data.LogData;
import io.lakesync.bench.data.PkState;
import io.lakesync.tiering.columnar.AppendRangeSink;
import io.lakesync.tiering.columnar.ArrowAppendRange;
import io.lakesync.tiering.columnar.InMemoryArrowBatches;
import io.lakesync.tiering.columnar.write.ParquetAppendWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.LongAdder;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.RowType;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FormatWriter;
import org.apache.paimon.format.FormatWriterFactory;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.io.DataFilePathFactory;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.types.RowKind;

/**
 * The floor below any Paimon table write: the rows a tiering writes, generated in this process, encoded in the
 * lake table's own file format (its {@code file.format} and {@code file.compression}) by the fastest encoder
 * found, without manifests or commit. A log table lakesync writes columnar: its column writers
 * ({@link ParquetAppendWriter}, files deleted afterwards) fed from Arrow log batches as the columnar reader hands
 * them over (built in memory before the timed part, {@link InMemoryArrowBatches}), one writer per core, each
 * taking every n-th bucket.
 * Otherwise Paimon's format writer straight into local files (no rolling, statistics, manifests or commit): a
 * primary-key table's changelog in order, by one writer (no sort, no merge); several tables: one file per
 * table, one task per core at a time.
 */
final class FormatWriteBound implements Bound {

    /** Rows per Arrow batch of the columnar floor, about what a Fluss writer puts in one batch of this schema. */
    private static final int ARROW_BATCH_ROWS = 4096;

    private final Map<String, String> lakeOptions;
    private final List<TablePath> sources;
    private final DataSpec firstSpec;
    private final Path outDir;
    private final List<FileStoreTable> tables = new ArrayList<>();
    private final LongAdder rowsWritten = new LongAdder();
    /** Log tables written columnar: per task, the table, its Arrow batches and their decoder. */
    private final List<ArrowInput> arrowInputs = new ArrayList<>();

    FormatWriteBound(Map<String, String> lakeOptions, List<TablePath> sources, DataSpec firstSpec, Path workDir) {
        this.lakeOptions = lakeOptions;
        this.sources = sources;
        this.firstSpec = firstSpec;
        this.outDir = workDir.resolve("format-bound");
    }

    @Override
    public void prepare() throws Exception {
        Files.createDirectories(outDir);
        try (Catalog catalog = LakeTables.openCatalog(lakeOptions)) {
            for (TablePath source : sources) {
                tables.add((FileStoreTable) catalog.getTable(LakeTables.identifier(source)));
            }
        }
        if (firstSpec.primaryKey()) {
            return;
        }
        int writers = tables.size() == 1 ? logWriters() : 1;
        for (int i = 0; i < tables.size(); i++) {
            FileStoreTable table = tables.get(i);
            if (ParquetAppendWriter.unsupportedReason(table) == null) {
                prepareArrowInputs(table, firstSpec.ofTable(i), writers);
            }
        }
    }

    /** The table's rows as Arrow batches, bucket by bucket, for {@code writers} writers (each every n-th bucket). */
    private void prepareArrowInputs(FileStoreTable table, DataSpec spec, int writers) throws Exception {
        RowType rowType = BenchSchema.descriptor(false, spec.buckets(), Duration.ZERO).getSchema().getRowType();
        List<ArrowInput> inputs = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            inputs.add(new ArrowInput(table, new InMemoryArrowBatches(rowType), new ArrayList<>()));
        }
        arrowInputs.addAll(inputs);
        for (int bucket = 0; bucket < spec.buckets(); bucket++) {
            ArrowInput input = inputs.get(bucket % writers);
            long bucketRows = (spec.rows() - bucket + spec.buckets() - 1) / spec.buckets();
            for (long from = 0; from < bucketRows; from += ARROW_BATCH_ROWS) {
                List<GenericRow> rows = new ArrayList<>();
                for (long offset = from; offset < Math.min(bucketRows, from + ARROW_BATCH_ROWS); offset++) {
                    rows.add(BenchSchema.toFluss(LogData.row(spec.seed(), bucket + offset * spec.buckets())));
                }
                input.batches.add(new BucketBatch(bucket, input.arrow.encode(from, rows)));
            }
        }
    }

    private int logWriters() {
        return Math.max(1, Math.min(firstSpec.buckets(), Runtime.getRuntime().availableProcessors()));
    }

    @Override
    public Map<String, Object> run() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        List<Callable<Void>> tasks = new ArrayList<>();
        Set<FileStoreTable> columnar = new HashSet<>();
        for (ArrowInput input : arrowInputs) {
            columnar.add(input.table);
            tasks.add(() -> writeLogColumnar(input));
        }
        if (tables.size() == 1 && !firstSpec.primaryKey() && columnar.isEmpty()) {
            int writers = logWriters();
            for (int w = 0; w < writers; w++) {
                int first = w;
                tasks.add(() -> writeLog(tables.get(0), firstSpec, first, writers, "w" + first));
            }
        } else {
            for (int i = 0; i < tables.size(); i++) {
                FileStoreTable table = tables.get(i);
                if (columnar.contains(table)) {
                    continue;
                }
                DataSpec spec = firstSpec.ofTable(i);
                String name = "t" + i;
                tasks.add(() -> spec.primaryKey()
                        ? writePrimaryKey(table, spec, name)
                        : writeLog(table, spec, 0, 1, name));
            }
        }
        PaimonWriteBound.runAll(tasks, cores);
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("rowsWritten", rowsWritten.sum());
        return figures;
    }

    private Void writeLog(FileStoreTable table, DataSpec spec, int first, int step, String name) throws Exception {
        long now = System.currentTimeMillis();
        try (FileOut out = open(table, name)) {
            for (long i = first; i < spec.rows(); i += step) {
                int bucket = (int) (i % spec.buckets());
                long offset = i / spec.buckets();
                out.writer.addElement(
                        BenchSchema.toPaimon(LogData.row(spec.seed(), i), RowKind.INSERT, bucket, offset, now));
                rowsWritten.increment();
            }
        }
        return null;
    }

    private Void writeLogColumnar(ArrowInput input) throws Exception {
        FileStoreTable table = input.table;
        List<CommitMessage> written;
        try (ParquetAppendWriter writer = new ParquetAppendWriter(table)) {
            // The columnar reader hands a log table's batches over as ranges of rows, when the sink takes them.
            AppendRangeSink sink = new AppendRangeSink() {
                @Override
                public void write(TableBucket bucket, LogRecord record) throws Exception {
                    writer.write(bucket, record);
                    rowsWritten.increment();
                }

                @Override
                public void writeAppends(TableBucket bucket, ArrowAppendRange range) throws Exception {
                    writer.writeAppends(bucket, range);
                    rowsWritten.add(range.rowCount());
                }
            };
            for (BucketBatch batch : input.batches) {
                input.arrow.replay(batch.batch, new TableBucket(0, batch.bucket), sink);
            }
            written = writer.complete();
        }
        for (CommitMessage message : written) {
            CommitMessageImpl files = (CommitMessageImpl) message;
            DataFilePathFactory paths =
                    table.store().pathFactory().createDataFilePathFactory(files.partition(), files.bucket());
            files.newFilesIncrement().newFiles().forEach(f -> table.fileIO().deleteQuietly(paths.toPath(f)));
        }
        return null;
    }

    private Void writePrimaryKey(FileStoreTable table, DataSpec spec, String name) throws Exception {
        long now = System.currentTimeMillis();
        try (FileOut out = open(table, name)) {
            long[] offset = {0};
            PkState.ChangelogSink sink = (kind, record) -> {
                out.writer.addElement(BenchSchema.toPaimon(record, kind, 0, offset[0]++, now));
                rowsWritten.increment();
            };
            PkState.tieredChangelog(spec, sink);
        }
        return null;
    }

    private FileOut open(FileStoreTable table, String name) throws Exception {
        CoreOptions options = CoreOptions.fromMap(table.options());
        FileFormat format = FileFormat.fromIdentifier(options.formatType(), options.toConfiguration());
        FormatWriterFactory factory = format.createWriterFactory(table.rowType());
        org.apache.paimon.fs.Path path = new org.apache.paimon.fs.Path(
                outDir.resolve(name + "." + options.formatType()).toString());
        PositionOutputStream stream = LocalFileIO.create().newOutputStream(path, true);
        return new FileOut(stream, factory.create(stream, options.fileCompression()));
    }

    /** A format writer and the stream under it, closed in that order. */
    private record FileOut(PositionOutputStream stream, FormatWriter writer) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            try {
                writer.close();
            } finally {
                stream.close();
            }
        }
    }

    @Override
    public void close() {
        arrowInputs.forEach(input -> input.arrow.close());
    }

    private record BucketBatch(int bucket, byte[] batch) {}

    private record ArrowInput(FileStoreTable table, InMemoryArrowBatches arrow, List<BucketBatch> batches) {}
}
