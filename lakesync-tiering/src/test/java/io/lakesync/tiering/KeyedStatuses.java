package io.lakesync.tiering;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;

/** Upserts and deletes of a Fluss primary-key table of (BIGINT key, STRING status), and the state they leave. */
public final class KeyedStatuses {

    private final TablePath path;
    private final Map<Long, String> expected = new TreeMap<>();

    public KeyedStatuses(TablePath path) {
        this.path = path;
    }

    /** A lake-enabled primary-key table {@code (order_id BIGINT, status STRING)} over {@code buckets} buckets. */
    public static TableDescriptor.Builder table(int buckets, String freshness) {
        return TableDescriptor.builder()
                .schema(Schema.newBuilder()
                        .column("order_id", DataTypes.BIGINT())
                        .column("status", DataTypes.STRING())
                        .primaryKey("order_id")
                        .build())
                .distributedBy(buckets)
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", freshness);
    }

    /** Sets keys {@code from} (inclusive) to {@code to} (exclusive) to {@code status}. */
    public void put(long from, long to, String status) throws Exception {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString(status)));
            expected.put(id, status);
        }
        TieringTestBase.upsert(path, rows, false);
    }

    /** Deletes the keys of {@code from} (inclusive) to {@code to} (exclusive) that exist. */
    public void delete(long from, long to) throws Exception {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            if (expected.containsKey(id)) {
                rows.add(GenericRow.of(id, BinaryString.fromString(expected.remove(id))));
            }
        }
        TieringTestBase.upsert(path, rows, true);
    }

    /** Key → status as Fluss holds them now. */
    public Map<Long, String> expected() {
        return expected;
    }
}
