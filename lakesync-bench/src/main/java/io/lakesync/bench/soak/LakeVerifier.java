package io.lakesync.bench.soak;

import io.lakesync.bench.cluster.LakeTables;
import io.lakesync.bench.data.BenchRecord;
import io.lakesync.bench.data.BenchSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import javax.annotation.Nullable;
import org.apache.fluss.metadata.TablePath;

/**
 * Reads the soak's lake tables back row by row and compares them with what was written ({@link SoakData}): log
 * tables must hold every row exactly once with its values (and in its partition), the primary-key table's merged
 * state must equal the writer's final state key by key.
 */
final class LakeVerifier {

    private final LakeTables lake;
    private final SoakTables tables;

    LakeVerifier(LakeTables lake, SoakTables tables) {
        this.lake = lake;
        this.tables = tables;
    }

    List<TableCheck> verify(SoakData written) throws Exception {
        return List.of(
                checkLog(tables.log(), "log", written.logRows(), written::logRow, null),
                checkPrimaryKey(written),
                checkLog(tables.partitioned(), "log, " + written.partitions() + " partitions", written.partitionedRows(),
                        written::partitionedRow, written::partitionOf));
    }

    /** {@code partitionOf}: the partition each id was written into; {@code null} for an unpartitioned table. */
    private TableCheck checkLog(
            TablePath path,
            String kind,
            long rows,
            LongFunction<BenchRecord> rowWritten,
            @Nullable LongFunction<String> partitionOf)
            throws Exception {
        int[] seen = new int[Math.toIntExact(rows)];
        long[] checked = {0};
        long[] mismatched = {0};
        List<String> columns = new ArrayList<>(BenchSchema.COLUMNS);
        boolean partitioned = partitionOf != null;
        if (partitioned) {
            columns.add(BenchSchema.PARTITION_COLUMN);
        }
        lake.forEachRow(path, columns, row -> {
            checked[0]++;
            BenchRecord record = BenchSchema.fromPaimon(row);
            long id = record.id();
            if (id < 0 || id >= rows) {
                mismatched[0]++;
                return;
            }
            seen[(int) id]++;
            boolean wrongPartition =
                    partitioned && !partitionOf.apply(id).equals(row.getString(BenchSchema.COLUMNS.size()).toString());
            if (wrongPartition || !record.equals(rowWritten.apply(id))) {
                mismatched[0]++;
            }
        });
        long lost = 0;
        long duplicated = 0;
        for (int count : seen) {
            lost += count == 0 ? 1 : 0;
            duplicated += Math.max(0, count - 1);
        }
        return new TableCheck(path.toString(), kind, String.format("%,d rows", rows), checked[0], lost, duplicated,
                mismatched[0]);
    }

    private TableCheck checkPrimaryKey(SoakData written) throws Exception {
        TablePath path = tables.primaryKey();
        Map<Long, BenchRecord> inLake = new HashMap<>();
        long[] checked = {0};
        long[] duplicated = {0};
        lake.forEachRow(path, BenchSchema.COLUMNS, row -> {
            checked[0]++;
            BenchRecord record = BenchSchema.fromPaimon(row);
            if (inLake.put(record.id(), record) != null) {
                duplicated[0]++;
            }
        });
        long[] lost = {0};
        long[] mismatched = {0};
        written.pkState().forEachLive((kind, expected) -> {
            BenchRecord actual = inLake.remove(expected.id());
            if (actual == null) {
                lost[0]++;
            } else if (!actual.equals(expected)) {
                mismatched[0]++;
            }
        });
        // Keys left over were deleted or never written.
        mismatched[0] += inLake.size();
        return new TableCheck(path.toString(), "primary key",
                String.format("%,d operations, %,d live keys", written.pkOperations(), written.pkState().liveKeys()),
                checked[0], lost[0], duplicated[0], mismatched[0]);
    }
}
