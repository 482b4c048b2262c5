package io.lakesync.bench.contender;

import io.lakesync.bench.cluster.LakeTables;
import io.lakesync.bench.data.BenchSchema;
import io.lakesync.bench.data.DataSpec;
import io.lakesync.bench.data.LogData;
import io.lakesync.bench.data.PkState;
import io.lakesync.tiering.columnar.write.ParquetAppendWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.LongAdder;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.GenericRecord;
import org.apache.fluss.row.GenericRow;
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
 * ({@link ParquetAppendWriter}, files deleted afterwards), one writer per core, each taking every n-th row.
 * Otherwise Paimon's format writer straight into local files (no rolling, statistics, manifests or commit): a
 * primary-key table's changelog in order, by one writer (no sort, no merge); several tables: one file per
 * table, one task per core at a time.
 */
final class FormatWriteBound implements Bound {

    private final Map<String, String> lakeOptions;
    private final List<TablePath> sources;
    private final DataSpec firstSpec;
    private final Path outDir;
    private final List<FileStoreTable> tables = new ArrayList<>();
    private final LongAdder rowsWritten = new LongAdder();

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
    }

    @Override
    public Map<String, Object> run() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        List<Callable<Void>> tasks = new ArrayList<>();
        if (tables.size() == 1 && !firstSpec.primaryKey()) {
            int writers = Math.max(1, Math.min(firstSpec.buckets(), cores));
            for (int w = 0; w < writers; w++) {
                int first = w;
                tasks.add(() -> writeLog(tables.get(0), firstSpec, first, writers, "w" + first));
            }
        } else {
            for (int i = 0; i < tables.size(); i++) {
                FileStoreTable table = tables.get(i);
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
        if (ParquetAppendWriter.unsupportedReason(table) == null) {
            return writeLogColumnar(table, spec, first, step);
        }
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

    private Void writeLogColumnar(FileStoreTable table, DataSpec spec, int first, int step) throws Exception {
        long now = System.currentTimeMillis();
        List<CommitMessage> written;
        try (ParquetAppendWriter writer = new ParquetAppendWriter(table)) {
            for (long i = first; i < spec.rows(); i += step) {
                int bucket = (int) (i % spec.buckets());
                long offset = i / spec.buckets();
                GenericRow row = BenchSchema.toFluss(LogData.row(spec.seed(), i));
                writer.write(new TableBucket(0, bucket), new GenericRecord(offset, now, ChangeType.APPEND_ONLY, row));
                rowsWritten.increment();
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
    public void close() {}
}
