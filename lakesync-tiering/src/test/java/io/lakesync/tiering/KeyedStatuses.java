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

    /** The lake-enabled primary-key table these statuses live in: {@link TieringTestBase#ordersTable}. */
    public static TableDescriptor.Builder table(int buckets, String freshness) {
        return TieringTestBase.ordersTable(buckets, freshness);
    }

    /** Sets keys {@code from} (inclusive) to {@code to} (exclusive) to {@code status}. */
    public void put(long from, long to, String status) throws Exception {
        TieringTestBase.upsertStatus(path, from, to, status, expected);
    }

    /** Deletes the keys of {@code from} (inclusive) to {@code to} (exclusive) that exist. */
    public void delete(long from, long to) throws Exception {
        TieringTestBase.deleteKeys(path, from, to, expected);
    }

    /** Key → status as Fluss holds them now. */
    public Map<Long, String> expected() {
        return expected;
    }
}
