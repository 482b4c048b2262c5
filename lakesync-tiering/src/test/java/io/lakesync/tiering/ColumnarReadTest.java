package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.round.BucketProgress;
import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.tiering.round.RoundResult;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * The columnar read and write paths against the row paths, on one cluster: the same rows (every column type the
 * benchmark and the demo use, with nulls) appended into two log tables, one tiered with
 * {@code tiering.columnar-read} and {@code tiering.columnar-write} on, one with both off, in two rounds each (the
 * second starting mid-log). Paimon's reader must return exactly the same rows, with the same {@code __bucket} and
 * {@code __offset}, and the columnar rounds must have read and written every bucket columnar.
 */
class ColumnarReadTest extends TieringTestBase {

    private static final String[] COLUMNS = {
        "id", "name", "amount", "price", "happened_at", "flag", "score", "__bucket", "__offset"
    };

    @Test
    void columnarAndRowPathsTierIdenticalRows() throws Exception {
        List<List<Object>> columnar = tierTwice(TablePath.of("fluss", "events_columnar"), "true");
        List<List<Object>> row = tierTwice(TablePath.of("fluss", "events_row"), "false");

        assertThat(columnar).hasSize(2 * ROWS_PER_APPEND);
        assertThat(columnar).containsExactlyElementsOf(row);
    }

    private static final int ROWS_PER_APPEND = 10_000;

    private List<List<Object>> tierTwice(TablePath path, String columnarRead) throws Exception {
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .column("amount", DataTypes.INT())
                .column("price", DataTypes.DECIMAL(12, 2))
                .column("happened_at", DataTypes.TIMESTAMP_LTZ(3))
                .column("flag", DataTypes.BOOLEAN())
                .column("score", DataTypes.DOUBLE())
                .build();
        createTable(path, lakeTable(schema, 3, "1s").build());
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
            service.start();
            append(path, rows(0));
            awaitTiered(path);
            append(path, rows(ROWS_PER_APPEND));
            awaitTiered(path);
        }
        List<BucketProgress> buckets = rounds.stream()
                .filter(RoundResult::committed)
                .flatMap(r -> r.buckets().stream())
                .filter(b -> b.records() > 0)
                .toList();
        assertThat(buckets).isNotEmpty();
        assertThat(buckets).allSatisfy(b -> assertThat(b.columnar()).isEqualTo(Boolean.parseBoolean(columnarRead)));
        assertThat(buckets).allSatisfy(b -> assertThat(b.columnarWrite()).isEqualTo(Boolean.parseBoolean(columnarRead)));
        assertThat(buckets.stream().anyMatch(b -> b.range().logStartOffset() > 0))
                .as("a round started mid-log")
                .isTrue();
        List<List<Object>> lake = new ArrayList<>(readLake(path, COLUMNS));
        lake.sort(Comparator.comparingLong(r -> (Long) r.get(0)));
        return lake;
    }

    private static List<InternalRow> rows(int from) {
        List<InternalRow> rows = new ArrayList<>();
        for (int i = from; i < from + ROWS_PER_APPEND; i++) {
            rows.add(GenericRow.of(
                    (long) i,
                    i % 7 == 0 ? null : BinaryString.fromString("name-" + i + "-" + "x".repeat(i % 40)),
                    i % 11 == 0 ? null : i % 1000,
                    Decimal.fromBigDecimal(BigDecimal.valueOf(i * 13L, 2), 12, 2),
                    i % 5 == 0 ? null : TimestampLtz.fromEpochMillis(1_700_000_000_000L + i),
                    i % 2 == 0,
                    i * 0.5));
        }
        return rows;
    }
}
