package io.lakesync.tiering;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * A record the Fluss 0.9.1 client cannot decode (a {@code TIMESTAMP(6)} before 1970 with sub-millisecond
 * digits) stops only its bucket: the rows before it and the other buckets reach the lake, the round fails as a
 * {@link FailureKind#BAD_RECORD} naming table, bucket, offset and column, retries leave no files behind, and
 * other tables sync on.
 */
class BadRecordTest extends TieringTestBase {

    private static final LocalDateTime NOON = LocalDateTime.of(2026, 11, 30, 12, 0, 0, 123_456_000);
    private static final Pattern LOCATION = Pattern.compile("bucket (\\d+) at or after offset (\\d+)");

    private final RecordedFailures failures = new RecordedFailures();

    @Test
    void undecodableTimestampStopsOnlyItsBucketAndRetriesLeaveNoFiles() throws Exception {
        TablePath bad = TablePath.of("fluss", "pre_epoch_micros");
        TablePath healthy = TablePath.of("fluss", "next_to_bad_records");
        TableInfo info = createTable(bad, descriptor());
        createTable(healthy, idTable(1, "1s"));
        append(bad, rows(0, 100));
        // 1969-12-31T23:59:59.999999: the reader turns -1 µs into a negative nano-of-millisecond and throws.
        append(bad, List.of(GenericRow.of(
                1000L, TimestampNtz.fromLocalDateTime(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000)))));
        append(bad, rows(100, 200));
        append(healthy, ids(0, 100));

        try (TieringService service = failures.startService("bad-records", Map.of("tiering.retry.max-backoff", "1s"))) {
            eventually(SYNC_TIMEOUT, () -> assertThat(failures.of(bad)).hasSizeGreaterThanOrEqualTo(2));
            long filesAfterFirstRetry = lakeFileCount(bad);
            eventually(SYNC_TIMEOUT, () -> assertThat(failures.of(bad)).hasSizeGreaterThanOrEqualTo(5));
            assertThat(lakeFileCount(bad)).as("files in the lake table folder across retries").isEqualTo(filesAfterFirstRetry);

            append(healthy, ids(100, 200));
            awaitTiered(healthy);
        }

        RecordedFailures.Failure failure = failures.of(bad).get(0);
        assertThat(failure.kind()).isEqualTo(FailureKind.BAD_RECORD);
        // Retried like a passing fault at first, then held as blocked once the same failure repeated.
        assertThat(failures.of(bad).subList(0, FailureKind.BAD_RECORD_ATTEMPTS))
                .extracting(RecordedFailures.Failure::kind)
                .containsExactly(FailureKind.BAD_RECORD, FailureKind.BAD_RECORD, FailureKind.BLOCKED);
        assertThat(failures.of(bad).subList(FailureKind.BAD_RECORD_ATTEMPTS, 5))
                .extracting(RecordedFailures.Failure::kind)
                .containsOnly(FailureKind.BLOCKED);
        String message = failure.cause().getMessage();
        assertThat(message).contains("fluss.pre_epoch_micros").contains("column 'ts'").contains("Fluss client cannot decode");
        assertThat(failures.of(bad))
                .filteredOn(f -> f.kind() != FailureKind.LOST) // stopping the service cuts the last attempt short
                .allSatisfy(f -> assertThat(f.cause().getMessage()).isEqualTo(message));
        Matcher location = LOCATION.matcher(message);
        assertThat(location.find()).as(message).isTrue();
        TableBucket badBucket = new TableBucket(info.getTableId(), Integer.parseInt(location.group(1)));
        long badOffset = Long.parseLong(location.group(2));

        // Everything before the bad record, and the other bucket entirely, reached the lake exactly once.
        assertThat(fluss.latestLakeSnapshot(bad).get().getTableBucketsOffset()).containsEntry(badBucket, badOffset);
        List<Long> lakeIds = readLake(bad, "id").stream().map(r -> (Long) r.get(0)).toList();
        assertThat(lakeIds).doesNotHaveDuplicates().doesNotContain(1000L);
        assertThat(lakeIds).containsAll(idsBetween(0, 100));
        assertThat(readLake(healthy, "id")).hasSize(200);
    }

    private static List<Long> idsBetween(long from, long to) {
        return java.util.stream.LongStream.range(from, to).boxed().toList();
    }

    private static TableDescriptor descriptor() {
        Schema schema = Schema.newBuilder().column("id", DataTypes.BIGINT()).column("ts", DataTypes.TIMESTAMP(6)).build();
        return lakeTable(schema, 2, "1s").build();
    }

    private static List<InternalRow> rows(long from, long to) {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.of(id, TimestampNtz.fromLocalDateTime(NOON.plusSeconds(id))));
        }
        return rows;
    }
}
