package io.lakesync.tiering;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.columnar.AppendRangeSink;
import io.lakesync.tiering.columnar.ArrowAppendRange;
import io.lakesync.tiering.columnar.ArrowLogReader;
import io.lakesync.tiering.columnar.LogPosition;
import io.lakesync.tiering.columnar.RecordSink;
import io.lakesync.tiering.round.BucketProgress;
import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.tiering.round.RoundResult;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * The columnar read and write paths against the row paths, on one cluster: the same rows (every column type the
 * benchmark and the demo use, with nulls) written into two tables, one tiered with {@code tiering.columnar-read}
 * and {@code tiering.columnar-write} on, one with both off, in two rounds each (the second starting mid-log).
 * Paimon's reader must return exactly the same rows, with the same {@code __bucket} and {@code __offset}, and the
 * columnar rounds must have read every bucket columnar (and written every log-table bucket columnar). Log tables
 * get appends; primary-key tables get inserts, then updates, deletes and re-inserts, and their lake changelog
 * (row kinds included) must be identical too. The reader itself hands a log table's batches over as ranges of
 * rows, except batches written before an {@code ADD COLUMN}, which come record by record in the new schema.
 */
class ColumnarReadTest extends TieringTestBase {

    private static final String[] COLUMNS = {
        "id", "name", "amount", "price", "happened_at", "flag", "score", "__bucket", "__offset"
    };
    private static final int ROWS_PER_APPEND = 10_000;

    @Test
    void columnarAndRowPathsTierIdenticalRows() throws Exception {
        List<List<Object>> columnar = tierTwice(TablePath.of("fluss", "events_columnar"), "true", false);
        List<List<Object>> row = tierTwice(TablePath.of("fluss", "events_row"), "false", false);

        assertThat(columnar).hasSize(2 * ROWS_PER_APPEND);
        assertThat(columnar).containsExactlyElementsOf(row);
    }

    @Test
    void columnarAndRowPathsTierIdenticalChangelogsOfAPrimaryKeyTable() throws Exception {
        TablePath columnarPath = TablePath.of("fluss", "accounts_columnar");
        TablePath rowPath = TablePath.of("fluss", "accounts_row");
        List<List<Object>> columnar = tierTwice(columnarPath, "true", true);
        List<List<Object>> row = tierTwice(rowPath, "false", true);

        // Inserts 0..9,999; then 10,000..19,999 inserted, every 3rd old key updated, every 5th deleted.
        long deleted = IntStream.range(0, ROWS_PER_APPEND).filter(i -> i % 5 == 0).count();
        assertThat(columnar).hasSize((int) (2 * ROWS_PER_APPEND - deleted));
        assertThat(columnar).containsExactlyElementsOf(row);
        assertThat(columnar)
                .as("an updated key holds its new value")
                .anySatisfy(r -> assertThat(r.get(2)).isEqualTo(-3));

        List<List<Object>> columnarChangelog = changelog(columnarPath);
        assertThat(columnarChangelog).extracting(r -> r.get(0)).contains("+I", "-U", "+U", "-D");
        assertThat(columnarChangelog).containsExactlyElementsOf(changelog(rowPath));
    }

    @Test
    void aFetchWithoutAnswerIsSentAgainAndNoRecordIsLostOrRepeated() throws Exception {
        TablePath path = TablePath.of("fluss", "events_lost_fetch");
        TableInfo table = createTable(path, idTable(2, "1h"));
        append(path, ids(0, 3_000));
        Map<TableBucket, Long> ends = endOffsets(path);
        // While answers are "late", every reading of this clock is a minute after the last, longer than a fetch
        // may go unanswered; afterwards time stands still and no fetch is given up.
        AtomicBoolean answersLate = new AtomicBoolean(true);
        AtomicLong now = new AtomicLong();
        LongSupplier clock = () -> answersLate.get() ? now.addAndGet(Duration.ofMinutes(1).toNanos()) : now.get();
        List<Long> ids = new ArrayList<>();
        RecordSink sink = (bucket, record) -> ids.add(record.getRow().getLong(0));
        try (ArrowLogReader reader = ArrowLogReader.open(fluss, table, clock)) {
            List<LogPosition> positions = new ArrayList<>();
            ends.forEach((bucket, end) -> {
                LogPosition position = new LogPosition(bucket, 0, end);
                positions.add(position);
                reader.subscribe(position);
            });
            reader.poll(Duration.ZERO, sink); // sends the first fetches
            reader.poll(Duration.ZERO, sink); // their answers are not in yet: given up and sent again
            answersLate.set(false);
            assertThat(reader.fetchesLost()).as("fetches given up and sent again").isPositive();
            eventually(SYNC_TIMEOUT, () -> {
                reader.poll(Duration.ofMillis(200), sink);
                assertThat(reader.reading()).isFalse();
            });
            assertThat(positions).allSatisfy(p -> assertThat(p.state()).isEqualTo(LogPosition.State.DONE));
        }
        assertThat(ids).hasSize(3_000).doesNotHaveDuplicates();
    }

    @Test
    void aLogTablesBatchesComeAsRangesAndThoseOfTheSchemaBeforeAnAddColumnRecordByRecord() throws Exception {
        TablePath path = TablePath.of("fluss", "events_added_column");
        createTable(path, idTable(2, "1h"));
        append(path, ids(0, 1_000));
        admin.alterTable(
                        path,
                        List.of(TableChange.addColumn("extra", DataTypes.INT(), null, TableChange.ColumnPosition.last())),
                        false)
                .get();
        List<InternalRow> withExtra = new ArrayList<>();
        for (long id = 1_000; id < 2_000; id++) {
            withExtra.add(GenericRow.of(id, (int) id));
        }
        append(path, withExtra);
        TableInfo table = admin.getTableInfo(path).get();
        Map<TableBucket, Long> ends = endOffsets(path);
        // id -> its "extra" column as the reader handed it; records and ranges apart.
        Map<Long, Integer> byRecord = new HashMap<>();
        Map<Long, Integer> byRange = new HashMap<>();
        List<Long> handedOut = new ArrayList<>();
        AppendRangeSink sink = new AppendRangeSink() {
            @Override
            public void write(TableBucket bucket, LogRecord record) {
                InternalRow row = record.getRow();
                byRecord.put(row.getLong(0), row.isNullAt(1) ? null : row.getInt(1));
                handedOut.add(row.getLong(0));
            }

            @Override
            public void writeAppends(TableBucket bucket, ArrowAppendRange range) {
                for (int r = range.firstRow(); r < range.endRow(); r++) {
                    InternalRow row = range.rowAt(r);
                    byRange.put(row.getLong(0), row.isNullAt(1) ? null : row.getInt(1));
                    handedOut.add(row.getLong(0));
                }
            }
        };
        try (ArrowLogReader reader = ArrowLogReader.open(fluss, table)) {
            List<LogPosition> positions = new ArrayList<>();
            ends.forEach((bucket, end) -> {
                LogPosition position = new LogPosition(bucket, 0, end);
                positions.add(position);
                reader.subscribe(position);
            });
            eventually(SYNC_TIMEOUT, () -> {
                reader.poll(Duration.ofMillis(200), sink);
                assertThat(reader.reading()).isFalse();
            });
            assertThat(positions).allSatisfy(p -> assertThat(p.state()).isEqualTo(LogPosition.State.DONE));
        }

        assertThat(handedOut).hasSize(2_000).doesNotHaveDuplicates();
        assertThat(byRecord.keySet()).as("the rows of the old schema").isEqualTo(idSet(0, 1_000));
        assertThat(byRecord.values()).containsOnlyNulls();
        assertThat(byRange.keySet()).as("the rows of the current schema").isEqualTo(idSet(1_000, 2_000));
        assertThat(byRange).allSatisfy((id, extra) -> assertThat(extra).isEqualTo(id.intValue()));
    }

    private static Set<Long> idSet(long from, long to) {
        return LongStream.range(from, to).boxed().collect(Collectors.toSet());
    }

    private List<List<Object>> tierTwice(TablePath path, String columnarRead, boolean primaryKey) throws Exception {
        Schema.Builder schema = Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .column("amount", DataTypes.INT())
                .column("price", DataTypes.DECIMAL(12, 2))
                .column("happened_at", DataTypes.TIMESTAMP_LTZ(3))
                .column("flag", DataTypes.BOOLEAN())
                .column("score", DataTypes.DOUBLE());
        if (primaryKey) {
            schema.primaryKey("id");
        }
        createTable(path, lakeTable(schema.build(), 3, "1s").build());
        List<RoundResult> rounds = new CopyOnWriteArrayList<>();
        TieringListener listener = new TieringListener() {
            @Override
            public void roundFinished(RoundResult result) {
                if (result.assignment().tablePath().equals(path)) {
                    rounds.add(result);
                }
            }
        };
        String instance = "columnar-" + columnarRead;
        try (TieringService service = new TieringService(
                serviceConfig(
                        instance, Map.of("tiering.columnar-read", columnarRead, "tiering.columnar-write", columnarRead)),
                listener,
                RoundHooks.NONE,
                Clock.systemUTC())) {
            if (primaryKey) {
                // Loaded from a KV snapshot that covers every insert (offset -1 in both tables), so that what
                // the first round reads does not depend on when the periodic snapshot falls.
                upsert(path, rows(0, ROWS_PER_APPEND, i -> true), false);
                awaitKvSnapshotCoveringEveryRecord(path);
                service.start();
            } else {
                service.start();
                append(path, rows(0, ROWS_PER_APPEND, i -> true));
            }
            awaitTiered(path);
            if (primaryKey) {
                upsert(path, rows(0, 2 * ROWS_PER_APPEND, i -> i >= ROWS_PER_APPEND || i % 3 == 0), false);
                upsert(path, rows(0, ROWS_PER_APPEND, i -> i % 5 == 0), true);
            } else {
                append(path, rows(ROWS_PER_APPEND, 2 * ROWS_PER_APPEND, i -> true));
            }
            awaitTiered(path);
        }
        List<BucketProgress> buckets = rounds.stream()
                .filter(RoundResult::committed)
                .flatMap(r -> r.buckets().stream())
                .filter(b -> b.records() > 0 && b.range().hasLog())
                .toList();
        assertThat(buckets).isNotEmpty();
        assertThat(buckets).allSatisfy(b -> assertThat(b.columnar()).isEqualTo(Boolean.parseBoolean(columnarRead)));
        // Primary-key tables too (tiering.columnar-write-primary-key is on by default).
        assertThat(buckets).allSatisfy(b -> assertThat(b.columnarWrite()).isEqualTo(Boolean.parseBoolean(columnarRead)));
        assertThat(buckets.stream().anyMatch(b -> b.range().logStartOffset() > 0))
                .as("a round started mid-log")
                .isTrue();
        List<List<Object>> lake = new ArrayList<>(readLake(path, COLUMNS));
        lake.sort(Comparator.comparingLong(r -> (Long) r.get(0)));
        return lake;
    }

    private static void awaitKvSnapshotCoveringEveryRecord(TablePath path) throws Exception {
        Map<TableBucket, Long> ends = endOffsets(path);
        eventually(Duration.ofSeconds(60), () -> {
            KvSnapshots snapshots = admin.getLatestKvSnapshots(path).get();
            ends.forEach((bucket, end) -> assertThat(snapshots.getLogOffset(bucket.getBucket()))
                    .as("KV snapshot of bucket %s", bucket.getBucket())
                    .hasValue(end));
        });
    }

    /** The lake changelog, row kind first, ordered by bucket and offset (one entry per Fluss log record). */
    private static List<List<Object>> changelog(TablePath path) throws Exception {
        List<List<Object>> changelog = new ArrayList<>(readLakeChangelog(path, COLUMNS));
        changelog.sort(Comparator.<List<Object>>comparingInt(r -> (Integer) r.get(8))
                .thenComparingLong(r -> (Long) r.get(9)));
        return changelog;
    }

    /**
     * Rows of ids {@code from} to {@code to} that {@code included} picks; a row written a second time (an update)
     * has a negative amount, so updates are visible in the lake.
     */
    private static List<InternalRow> rows(int from, int to, IntPredicate included) {
        List<InternalRow> rows = new ArrayList<>();
        for (int i = from; i < to; i++) {
            if (!included.test(i)) {
                continue;
            }
            boolean update = from == 0 && to > ROWS_PER_APPEND && i < ROWS_PER_APPEND;
            rows.add(GenericRow.of(
                    (long) i,
                    i % 7 == 0 ? null : BinaryString.fromString("name-" + i + "-" + "x".repeat(i % 40)),
                    i % 11 == 0 ? null : (update ? -(i % 1000) : i % 1000),
                    Decimal.fromBigDecimal(BigDecimal.valueOf(i * 13L, 2), 12, 2),
                    i % 5 == 0 ? null : TimestampLtz.fromEpochMillis(1_700_000_000_000L + i),
                    i % 2 == 0,
                    i * 0.5));
        }
        return rows;
    }
}
