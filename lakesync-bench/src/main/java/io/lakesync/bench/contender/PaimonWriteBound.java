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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.catalog.Catalog;
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
 * writes), then commits once. A primary-key table gets the snapshot rows (+I) and then the changelog of the
 * tail (+I, -U/+U, -D), as a tiering from KV snapshot plus changelog writes them.
 */
final class PaimonWriteBound implements Bound {

    private final Map<String, String> lakeOptions;
    private final TablePath source;
    private final TablePath scratch;
    private final DataSpec spec;
    private final Path ioDir;
    private Catalog catalog;
    private FileStoreTable table;
    private long rowsWritten;

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
        List<CommitMessage> messages;
        try (BatchTableWrite write = builder.newWrite()) {
            write.withIOManager(IOManager.create(ioDir.toString()));
            long[] offsets = new long[spec.buckets()];
            long now = System.currentTimeMillis();
            PkState.ChangelogSink sink = (kind, row) -> {
                int bucket = (int) Math.floorMod(row.id(), spec.buckets());
                write.write(BenchSchema.toPaimon(row, kind, bucket, offsets[bucket]++, now));
                rowsWritten++;
            };
            if (spec.primaryKey()) {
                PkOps ops = new PkOps(spec.seed());
                PkState state = new PkState(spec.seed(), spec.rows());
                for (long i = 0; i < spec.baseRows(); i++) {
                    state.apply(ops.next());
                }
                state.forEachLive(sink);
                for (long i = spec.baseRows(); i < spec.rows(); i++) {
                    state.apply(ops.next(), sink);
                }
            } else {
                for (long i = 0; i < spec.rows(); i++) {
                    BenchRecord row = LogData.row(spec.seed(), i);
                    sink.accept(RowKind.INSERT, row);
                }
            }
            messages = write.prepareCommit();
        }
        try (BatchTableCommit commit = builder.newCommit()) {
            commit.commit(messages);
        }
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("rowsWritten", rowsWritten);
        return figures;
    }

    @Override
    public void close() throws Exception {
        if (catalog != null) {
            catalog.close();
        }
    }
}
