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
 *
 * <p>Two phases: a few large rounds, for the per-value code (decoding, encoding, compression), then many small
 * rounds over many tables, for the per-round code (a lake table load, a writer opened, a small file written with
 * its columns' encodings sampled, its statistics, the fenced commit with its manifests and snapshot), which a few
 * rounds leave interpreted. A fresh instance handed two hundred small tables compiles that code while it syncs
 * them: with the large rounds alone its JIT compilers took 8.3 of its 15.8 CPU seconds, with small rounds too
 * 6.9-7.0 of 13.7-15.0 (lakesync-bench README, many-tables). Each small table takes a first commit and a second:
 * a new table's first commit (no snapshot, manifest or tiering property before it) is what every table takes
 * first, and eight rounds into each of eight tables compiled no less during the sync than sixteen.
 */
public final class WriteWarmUp {

    /** What the warm-up wrote: rows (and changes) through the writers, lake commits, and the time it took. */
    public record Result(long rows, int commits, Duration took) {}

    /** Which writers the instance's rounds use ({@code tiering.columnar-write*}). */
    public record Writers(boolean columnar, boolean columnarPrimaryKey) {}

    private static final String DATABASE = "warm_up";
    /** The large rounds: per table and round, {@code batches} batches of {@code rowsPerBatch} rows per bucket. */
    private static final Shape LARGE = new Shape(3, 2, 8192, 2);
    /**
     * The small rounds, into each of {@link #SMALL_LOG_TABLES} log and {@link #SMALL_PRIMARY_KEY_TABLES}
     * primary-key tables: a first commit into an empty table and a second one, each with a file large enough for
     * the columnar writer to sample its columns' encodings.
     */
    private static final Shape SMALL = new Shape(2, 1, 320, 1);
    private static final int SMALL_LOG_TABLES = 24;
    private static final int SMALL_PRIMARY_KEY_TABLES = 8;
    private static final long TABLE_ID = 1L;
    /** Keys per bucket of a primary-key table: each round inserts, updates and deletes among them. */
    private static final int KEYS_PER_BUCKET = 8192;

    /** Rounds per table, and per round: batches per bucket, rows per batch, buckets. */
    private record Shape(int rounds, int batches, int rowsPerBatch, int buckets) {}

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
            long rows = 0;
            int commits = 0;
            try (InMemoryArrowBatches logBatches = new InMemoryArrowBatches(FLUSS_ROW_TYPE, true);
                    InMemoryArrowBatches changeBatches = new InMemoryArrowBatches(FLUSS_ROW_TYPE, false)) {
                List<TableRounds> large = List.of(
                        new TableRounds(lakeTables, "log", LARGE, logBatches),
                        new TableRounds(lakeTables, "primary_key", LARGE, changeBatches));
                List<TableRounds> small = new ArrayList<>();
                for (int i = 0; i < SMALL_LOG_TABLES; i++) {
                    small.add(new TableRounds(lakeTables, "small_log_" + i, SMALL, logBatches));
                }
                for (int i = 0; i < SMALL_PRIMARY_KEY_TABLES; i++) {
                    small.add(new TableRounds(lakeTables, "small_primary_key_" + i, SMALL, changeBatches));
                }
                // Per phase, round-robin over its tables, as an instance goes from table to table.
                for (List<TableRounds> phase : List.of(large, small)) {
                    for (TableRounds table : phase) {
                        table.create();
                    }
                    for (int round = 0; round < phase.get(0).shape.rounds(); round++) {
                        for (TableRounds table : phase) {
                            rows += table.writeRound(round);
                            commits++;
                        }
                    }
                }
            }
            return new Result(rows, commits, Duration.between(start, clock.instant()));
        } finally {
            Folders.deleteRecursively(warehouse);
        }
    }

    /** The rounds of one warm-up table; a primary-key table's when its batches carry change types. */
    private final class TableRounds {
        final LakeTables lakeTables;
        final TablePath path;
        final Shape shape;
        final InMemoryArrowBatches batches;
        /** Per bucket, the offset of its next record. */
        final long[] nextOffsets;

        TableRounds(LakeTables lakeTables, String name, Shape shape, InMemoryArrowBatches batches) {
            this.lakeTables = lakeTables;
            this.path = TablePath.of(DATABASE, name);
            this.shape = shape;
            this.batches = batches;
            this.nextOffsets = new long[shape.buckets()];
        }

        boolean changes() {
            return !batches.appendsOnly();
        }

        /** The lake table, shaped as Fluss creates it: the Fluss columns, then the three system columns. */
        void create() throws Exception {
            Schema.Builder schema = Schema.newBuilder();
            if (changes()) {
                schema.primaryKey("id")
                        .option("bucket", Integer.toString(shape.buckets()))
                        .option("changelog-producer", "input");
            } else {
                schema.option("bucket", "-1");
            }
            for (int i = 0; i < PAIMON_TYPES.length; i++) {
                schema.column(FLUSS_ROW_TYPE.getFieldNames().get(i), PAIMON_TYPES[i]);
            }
            schema.column("__bucket", DataTypes.INT())
                    .column("__offset", DataTypes.BIGINT())
                    .column("__timestamp", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                    .option("file.format", "parquet")
                    .option("partition.legacy-name", "false");
            lakeTables.catalog()
                    .createTable(Identifier.create(DATABASE, path.getTableName()), schema.build(), false);
        }

        /**
         * One round, as a tiering round does it: the lake table loaded, its tiering snapshot read, the batches of
         * every bucket through one writer, then one fenced tiering commit. Returns the rows written.
         */
        long writeRound(int round) throws Exception {
            FileStoreTable table = lakeTables.load(path);
            LakeSnapshotCommitter committer = new LakeSnapshotCommitter(table, false);
            committer.latestTieringSnapshot();
            long rows = 0;
            List<CommitMessage> messages;
            try (LakeWriter writer = writer(table)) {
                // A writer that takes ranges of rows gets them, as from the columnar reader.
                RecordSink sink = writer instanceof RecordSink records ? records : writer::write;
                for (int bucket = 0; bucket < shape.buckets(); bucket++) {
                    TableBucket tableBucket = new TableBucket(TABLE_ID, bucket);
                    for (int batch = 0; batch < shape.batches(); batch++) {
                        long baseOffset = nextOffsets[bucket];
                        List<GenericRow> batchRows = new ArrayList<>();
                        List<ChangeType> types = new ArrayList<>();
                        rows(bucket, baseOffset, shape, changes(), batchRows, types);
                        batches.replay(batches.encode(baseOffset, batchRows, types), tableBucket, sink);
                        rows += batchRows.size();
                        nextOffsets[bucket] += batchRows.size();
                    }
                }
                messages = writer.complete();
            }
            String offsetsPath = "warm-up-" + path.getTableName() + "-" + round;
            LakeCommitOutcome outcome = committer.commit(messages, offsetsPath, committer.latestSnapshotId());
            if (!(outcome instanceof LakeCommitOutcome.Committed)) {
                committer.abort(messages);
                throw new IllegalStateException(
                        "The warm-up commit into " + table.name() + " did not land: " + outcome);
            }
            return rows;
        }
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
    private static void rows(
            int bucket, long baseOffset, Shape shape, boolean changes, List<GenericRow> rows, List<ChangeType> types) {
        for (int i = 0; i < shape.rowsPerBatch(); i++) {
            long n = baseOffset + rows.size();
            GenericRow row = GenericRow.of(
                    (n % KEYS_PER_BUCKET) * shape.buckets() + bucket,
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
