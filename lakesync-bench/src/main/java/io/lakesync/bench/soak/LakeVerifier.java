package io.lakesync.bench.soak;

import io.lakesync.bench.cluster.LakeTables;
import io.lakesync.bench.data.BenchRecord;
import io.lakesync.bench.data.BenchSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import javax.annotation.Nullable;
import org.apache.fluss.metadata.TablePath;

/**
 * Reads the soak's lake tables back row by row and compares them with what was written ({@link SoakData}): log
 * tables must hold every row exactly once with its values (and in its partition), the primary-key table's merged
 * state must equal the writer's final state key by key.
 */
public final class LakeVerifier {

    private final LakeTables lake;
    private final SoakTables tables;
    private final Consumer<String> progress;

    /** {@code progress}: told of each table once it is read back, as reading millions of rows takes minutes. */
    public LakeVerifier(LakeTables lake, SoakTables tables, Consumer<String> progress) {
        this.lake = lake;
        this.tables = tables;
        this.progress = progress;
    }

    /** What was wrong with a log table's row, for a caller that wants to know when it was written. */
    public enum Problem { LOST, DUPLICATED, MISMATCHED }

    /** Told of every wrong row of the log tables, by id (ids were written in order). */
    @FunctionalInterface
    public interface LogRowProblems {
        LogRowProblems NONE = (table, id, problem) -> {};

        void found(TablePath table, long id, Problem problem);
    }

    public List<TableCheck> verify(SoakData written) throws Exception {
        return verify(written, LogRowProblems.NONE);
    }

    /** Checks every table, telling {@code problems} of each wrong row of the log tables. */
    public List<TableCheck> verify(SoakData written, LogRowProblems problems) throws Exception {
        return List.of(
                reported(() -> checkLog(tables.log(), "log", written.logRows(), written::logRow, null, problems)),
                reported(() -> checkPrimaryKey(written)),
                reported(() -> checkLog(tables.partitioned(), "log, " + written.partitions() + " partitions",
                        written.partitionedRows(), written::partitionedRow, written::partitionOf, problems)));
    }

    private TableCheck reported(Callable<TableCheck> check) throws Exception {
        long start = System.nanoTime();
        TableCheck done = check.call();
        progress.accept(String.format("Read back %s: %,d rows in %.0f s, %s", done.table(), done.checked(),
                (System.nanoTime() - start) / 1e9, done.exact() ? "exact" : String.format(
                        "%,d lost, %,d duplicated, %,d mismatched", done.lost(), done.duplicated(), done.mismatched())));
        return done;
    }

    /** {@code partitionOf}: the partition each id was written into; {@code null} for an unpartitioned table. */
    private TableCheck checkLog(
            TablePath path,
            String kind,
            long rows,
            LongFunction<BenchRecord> rowWritten,
            @Nullable LongFunction<String> partitionOf,
            LogRowProblems problems)
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
                problems.found(path, id, Problem.MISMATCHED);
                return;
            }
            seen[(int) id]++;
            boolean wrongPartition =
                    partitioned && !partitionOf.apply(id).equals(row.getString(BenchSchema.COLUMNS.size()).toString());
            if (wrongPartition || !record.equals(rowWritten.apply(id))) {
                mismatched[0]++;
                problems.found(path, id, Problem.MISMATCHED);
            }
        });
        long lost = 0;
        long duplicated = 0;
        for (int id = 0; id < seen.length; id++) {
            if (seen[id] == 0) {
                lost++;
                problems.found(path, id, Problem.LOST);
            }
            for (int extra = 1; extra < seen[id]; extra++) {
                duplicated++;
                problems.found(path, id, Problem.DUPLICATED);
            }
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
