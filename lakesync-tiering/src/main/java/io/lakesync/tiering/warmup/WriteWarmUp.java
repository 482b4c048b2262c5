package io.lakesync.tiering.warmup;

import io.lakesync.folder.Folders;
import io.lakesync.tiering.columnar.InMemoryArrowBatches;
import io.lakesync.tiering.columnar.RecordSink;
import io.lakesync.tiering.columnar.write.ColumnarWriters;
import io.lakesync.tiering.lake.LakeCommitOutcome;
import io.lakesync.tiering.lake.LakeSnapshotCommitter;
import io.lakesync.tiering.lake.LakeTableWriter;
import io.lakesync.tiering.lake.LakeTables;
import io.lakesync.tiering.lake.LakeWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.types.RowType;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;

/**
 * Runs an instance's write path once, on made-up rows in a throw-away Paimon warehouse, before the instance takes
 * tables: Arrow log batches built in memory are decoded, written into Parquet data files by the writers the
 * instance's settings choose (columnar or Paimon's row writer) and committed as tiering snapshots, for a log table
 * and a primary-key table shaped as Fluss creates their lake tables. A fresh JVM otherwise loads several thousand
 * classes (Parquet, zstd, Paimon's commit, manifests and Avro) and compiles the per-value code during its first
 * rounds, which on two cores doubles the CPU and time of the first minutes of syncing; done here, that cost is
 * paid once at start-up, before any table waits on it. The warehouse is deleted before and after; nothing outside
 * it is touched. Not thread-safe.
 */
public final class WriteWarmUp {

    /** What the warm-up wrote: rows (and changes) through the writers, lake commits, and the time it took. */
    public record Result(long rows, int commits, Duration took) {}

    /** Which writers the instance's rounds use ({@code tiering.columnar-write*}). */
    public record Writers(boolean columnar, boolean columnarPrimaryKey) {}

    private static final String DATABASE = "warm_up";
    private static final int ROUNDS = 3;
    private static final int BATCHES_PER_ROUND = 2;
    private static final int ROWS_PER_BATCH = 8192;
    private static final int BUCKETS = 2;
    private static final long TABLE_ID = 1L;
    /** Keys per bucket of the primary-key table: each round inserts, updates and deletes among them. */
    private static final int KEYS_PER_BUCKET = ROWS_PER_BATCH;

    private static final RowType FLUSS_ROW_TYPE = org.apache.fluss.types.DataTypes.ROW(
            org.apache.fluss.types.DataTypes.FIELD("id", org.apache.fluss.types.DataTypes.BIGINT()),
            org.apache.fluss.types.DataTypes.FIELD("quantity", org.apache.fluss.types.DataTypes.INT()),
            org.apache.fluss.types.DataTypes.FIELD("name", org.apache.fluss.types.DataTypes.STRING()),
            org.apache.fluss.types.DataTypes.FIELD("price", org.apache.fluss.types.DataTypes.DOUBLE()),
            org.apache.fluss.types.DataTypes.FIELD("amount", org.apache.fluss.types.DataTypes.DECIMAL(10, 2)),
            org.apache.fluss.types.DataTypes.FIELD("active", org.apache.fluss.types.DataTypes.BOOLEAN()),
            org.apache.fluss.types.DataTypes.FIELD("created", org.apache.fluss.types.DataTypes.TIMESTAMP_LTZ(3)));
    private static final DataType[] PAIMON_TYPES = {
        DataTypes.BIGINT().notNull(), DataTypes.INT(), DataTypes.STRING(), DataTypes.DOUBLE(), DataTypes.DECIMAL(10, 2),
        DataTypes.BOOLEAN(), DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)
    };

    private final Path warehouse;
    private final Writers writers;
    private final Clock clock;

    /** {@code warehouse}: a folder of the instance's own, deleted and re-created by {@link #run()}. */
    public WriteWarmUp(Path warehouse, Writers writers, Clock clock) {
        this.warehouse = warehouse;
        this.writers = writers;
        this.clock = clock;
    }

    /** Writes and commits the made-up rows, then deletes the warehouse (also when the warm-up fails). */
    public Result run() throws Exception {
        Instant start = clock.instant();
        Folders.deleteRecursively(warehouse);
        Files.createDirectories(warehouse);
        try (LakeTables lakeTables = new LakeTables(Map.of("warehouse", warehouse.toUri().toString()))) {
            lakeTables.catalog().createDatabase(DATABASE, true);
            FileStoreTable log = create(lakeTables, "log", Schema.newBuilder().option("bucket", "-1"));
            FileStoreTable primaryKey = create(lakeTables, "primary_key", Schema.newBuilder()
                    .primaryKey("id")
                    .option("bucket", Integer.toString(BUCKETS))
                    .option("changelog-producer", "input"));
            long rows = 0;
            try (InMemoryArrowBatches logBatches = new InMemoryArrowBatches(FLUSS_ROW_TYPE, true);
                    InMemoryArrowBatches changeBatches = new InMemoryArrowBatches(FLUSS_ROW_TYPE, false)) {
                long[] logOffsets = new long[BUCKETS];
                long[] changeOffsets = new long[BUCKETS];
                for (int round = 0; round < ROUNDS; round++) {
                    rows += writeRound(log, round, logBatches, logOffsets, false);
                    rows += writeRound(primaryKey, round, changeBatches, changeOffsets, true);
                }
            }
            return new Result(rows, 2 * ROUNDS, Duration.between(start, clock.instant()));
        } finally {
            Folders.deleteRecursively(warehouse);
        }
    }

    private static FileStoreTable create(LakeTables lakeTables, String name, Schema.Builder schema) throws Exception {
        for (int i = 0; i < PAIMON_TYPES.length; i++) {
            schema.column(FLUSS_ROW_TYPE.getFieldNames().get(i), PAIMON_TYPES[i]);
        }
        schema.column("__bucket", DataTypes.INT())
                .column("__offset", DataTypes.BIGINT())
                .column("__timestamp", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                .option("file.format", "parquet")
                .option("partition.legacy-name", "false");
        lakeTables.catalog().createTable(Identifier.create(DATABASE, name), schema.build(), false);
        return lakeTables.load(TablePath.of(DATABASE, name));
    }

    /**
     * One round into {@code table}: batches per bucket through one writer, then one tiering commit;
     * {@code nextOffsets}: per bucket, the offset of its next record.
     */
    private long writeRound(
            FileStoreTable table, int round, InMemoryArrowBatches batches, long[] nextOffsets, boolean changes)
            throws Exception {
        LakeSnapshotCommitter committer = new LakeSnapshotCommitter(table, false);
        committer.latestTieringSnapshot();
        long rows = 0;
        List<CommitMessage> messages;
        try (LakeWriter writer = writer(table)) {
            // A writer that takes ranges of rows gets them, as from the columnar reader.
            RecordSink sink = writer instanceof RecordSink records ? records : writer::write;
            for (int bucket = 0; bucket < BUCKETS; bucket++) {
                TableBucket tableBucket = new TableBucket(TABLE_ID, bucket);
                for (int batch = 0; batch < BATCHES_PER_ROUND; batch++) {
                    long baseOffset = nextOffsets[bucket];
                    List<GenericRow> batchRows = new ArrayList<>();
                    List<ChangeType> types = new ArrayList<>();
                    rows(bucket, baseOffset, changes, batchRows, types);
                    batches.replay(batches.encode(baseOffset, batchRows, types), tableBucket, sink);
                    rows += batchRows.size();
                    nextOffsets[bucket] += batchRows.size();
                }
            }
            messages = writer.complete();
        }
        LakeCommitOutcome outcome = committer.commit(messages, "warm-up-" + round, committer.latestSnapshotId());
        if (!(outcome instanceof LakeCommitOutcome.Committed)) {
            committer.abort(messages);
            throw new IllegalStateException("The warm-up commit into " + table.name() + " did not land: " + outcome);
        }
        return rows;
    }

    /** The writer a round would choose for the table (auto-compaction is off in Fluss's default). */
    private LakeWriter writer(FileStoreTable table) {
        return writers.columnar() && ColumnarWriters.unsupportedReason(table, writers.columnarPrimaryKey()) == null
                ? ColumnarWriters.open(table)
                : new LakeTableWriter(table, false, warehouse);
    }

    /**
     * One batch of made-up rows of a bucket, into {@code rows} and {@code types}; for the primary-key table a
     * changelog over the bucket's keys: inserts in the first batch, then updates (before and after images) with
     * every eighth key deleted.
     */
    private static void rows(int bucket, long baseOffset, boolean changes, List<GenericRow> rows, List<ChangeType> types) {
        for (int i = 0; i < ROWS_PER_BATCH; i++) {
            long n = baseOffset + rows.size();
            GenericRow row = GenericRow.of(
                    (n % KEYS_PER_BUCKET) * BUCKETS + bucket,
                    (int) (n % 1000),
                    n % 11 == 0 ? null : BinaryString.fromString("item-" + (n % 5000)),
                    n * 0.25,
                    Decimal.fromBigDecimal(BigDecimal.valueOf(n % 100_000, 2), 10, 2),
                    n % 3 == 0,
                    TimestampLtz.fromEpochMillis(1_700_000_000_000L + n));
            if (!changes) {
                types.add(ChangeType.APPEND_ONLY);
            } else if (n < KEYS_PER_BUCKET) {
                types.add(ChangeType.INSERT);
            } else if (n % 8 == 0) {
                types.add(ChangeType.DELETE);
            } else {
                rows.add(row);
                types.add(ChangeType.UPDATE_BEFORE);
                types.add(ChangeType.UPDATE_AFTER);
            }
            rows.add(row);
        }
    }
}
