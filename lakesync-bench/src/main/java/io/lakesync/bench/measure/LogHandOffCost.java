package io.lakesync.bench.measure;

import io.lakesync.bench.data.BenchSchema;
import io.lakesync.bench.data.LogData;
import io.lakesync.tiering.columnar.InMemoryArrowBatches;
import io.lakesync.tiering.columnar.RecordSink;
import io.lakesync.tiering.columnar.write.ParquetAppendWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.RowType;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.types.DataTypes;

/**
 * The CPU and allocation per row of the columnar log write on one thread, for the two ways a log batch reaches
 * {@link ParquetAppendWriter}: record by record ({@code per-record}, what every log batch took before the batch
 * hand-off) and as one range of rows per batch ({@code range}). The benchmark's log rows, in Arrow batches
 * of {@value #BATCH_ROWS} rows built in memory before the timed part, are written into a bucket-unaware Paimon
 * table on local disk (files finished, not committed); the thread's CPU and allocated bytes are read from
 * {@code com.sun.management.ThreadMXBean} around each repetition, and the process's CPU (garbage collection and
 * compilation included, so noisier) beside them. Repetitions alternate between the two in one
 * JVM, after one warm-up of each.
 *
 * <p>Arguments: {@code [rows per repetition (1000000)] [repetitions of each (3)] [work directory (a temp dir)]}.
 */
public final class LogHandOffCost {

    private static final int BATCH_ROWS = 4096;
    private static final long SEED = 42;

    private LogHandOffCost() {}

    public static void main(String[] args) throws Exception {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        int repetitions = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("log-hand-off");
        for (String line : measure(rows, repetitions, dir)) {
            System.out.println(line);
        }
    }

    /** Runs the measurement; returns its report, one line per repetition and one summary per way. */
    public static List<String> measure(long rows, int repetitions, Path dir) throws Exception {
        RowType rowType = BenchSchema.descriptor(false, 1, Duration.ZERO).getSchema().getRowType();
        FileStoreTable table = createTable(dir.resolve("table"));
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean process =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        List<String> report = new ArrayList<>();
        try (InMemoryArrowBatches arrow = new InMemoryArrowBatches(rowType)) {
            List<byte[]> batches = new ArrayList<>();
            for (long from = 0; from < rows; from += BATCH_ROWS) {
                List<GenericRow> batchRows = new ArrayList<>();
                for (long i = from; i < Math.min(rows, from + BATCH_ROWS); i++) {
                    batchRows.add(BenchSchema.toFluss(LogData.row(SEED, i)));
                }
                batches.add(arrow.encode(from, batchRows));
            }
            double[][] cpu = new double[2][repetitions];
            double[][] processCpu = new double[2][repetitions];
            double[][] allocated = new double[2][repetitions];
            for (int rep = -1; rep < repetitions; rep++) {
                for (int way = 0; way < 2; way++) {
                    long cpuBefore = threads.getCurrentThreadCpuTime();
                    long processCpuBefore = process.getProcessCpuTime();
                    long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
                    write(table, arrow, batches, way == 1);
                    double perMillion = 1_000_000.0 / rows;
                    double cpuMs = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1e6 * perMillion;
                    double processCpuMs = (process.getProcessCpuTime() - processCpuBefore) / 1e6 * perMillion;
                    double allocatedMb =
                            (threads.getCurrentThreadAllocatedBytes() - allocatedBefore) / 1e6 * perMillion;
                    if (rep < 0) {
                        continue; // warm-up
                    }
                    cpu[way][rep] = cpuMs;
                    processCpu[way][rep] = processCpuMs;
                    allocated[way][rep] = allocatedMb;
                    report.add(line("rep " + (rep + 1), way, cpuMs, processCpuMs, allocatedMb));
                }
            }
            for (int way = 0; way < 2; way++) {
                report.add(line("median", way, median(cpu[way]), median(processCpu[way]), median(allocated[way])));
            }
        }
        return report;
    }

    private static String line(String what, int way, double cpuMs, double processCpuMs, double allocatedMb) {
        return String.format(
                "%-6s %-10s thread cpu %6.1f ms, process cpu %6.1f ms, allocated %6.1f MB per million rows",
                what, way == 1 ? "range" : "per-record", cpuMs, processCpuMs, allocatedMb);
    }

    /** Writes every batch through a new writer, finishes its files and deletes them. */
    private static void write(FileStoreTable table, InMemoryArrowBatches arrow, List<byte[]> batches, boolean asRanges)
            throws Exception {
        try (ParquetAppendWriter writer = new ParquetAppendWriter(table)) {
            // A lambda is no AppendRangeSink: the reader then hands every record alone, as before the hand-off.
            RecordSink sink = asRanges ? writer : writer::write;
            TableBucket bucket = new TableBucket(0, 0);
            for (byte[] batch : batches) {
                arrow.replay(batch, bucket, sink);
            }
            writer.complete();
        } // closing without a commit deletes the files
    }

    private static FileStoreTable createTable(Path path) throws Exception {
        Schema.Builder schema = Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("user_id", DataTypes.INT())
                .column("amount", DataTypes.BIGINT())
                .column("category", DataTypes.STRING())
                .column("name", DataTypes.STRING())
                .column("payload", DataTypes.STRING())
                .column("__bucket", DataTypes.INT())
                .column("__offset", DataTypes.BIGINT())
                .column("__timestamp", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                .option("bucket", "-1")
                .option("file.format", "parquet");
        LocalFileIO fileIO = LocalFileIO.create();
        org.apache.paimon.fs.Path tablePath = new org.apache.paimon.fs.Path(path.toUri());
        new SchemaManager(fileIO, tablePath).createTable(schema.build());
        return FileStoreTableFactory.create(fileIO, tablePath);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
