package io.lakesync.tiering.columnar.write;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.apache.paimon.shade.org.apache.parquet.column.ColumnWriteStore;

/**
 * Where parquet-mr's column store next checks its page sizes: the row count at which its {@code endRecord}
 * compares each column's buffered page with the page size and writes the pages that are due. That is the only
 * point where the buffered values decide anything, and each column's writer only ever sees its own values, in row
 * order; so between two checks the rows' values may reach the column writers column by column, and the pages come
 * out the same. parquet-mr keeps that row count in a private field of its store's package-private base class, with
 * no accessor, so it is read through a private lookup; with a parquet-mr that has no such field, {@link #KNOWN} is
 * false and rows are written one at a time.
 */
final class PageSizeChecks {

    /** The store's base class, which holds the field, or null in a parquet-mr without it. */
    private static final Class<?> STORE_BASE =
            find("org.apache.paimon.shade.org.apache.parquet.column.impl.ColumnWriteStoreBase");
    private static final VarHandle NEXT_CHECK = STORE_BASE == null ? null : nextCheckField(STORE_BASE);

    /** Whether {@link #rowsBeforeNext} can be asked. */
    static final boolean KNOWN = NEXT_CHECK != null;

    private PageSizeChecks() {}

    /**
     * How many rows can be written into {@code store} before its next page-size check, the row whose
     * {@code endRecord} makes the check included; {@code rowsEnded}: the rows whose {@code endRecord} the store has
     * seen. At least 1; 1 for a store of another kind. Ask only when {@link #KNOWN}.
     */
    static long rowsBeforeNext(ColumnWriteStore store, long rowsEnded) {
        if (!STORE_BASE.isInstance(store)) {
            return 1;
        }
        return Math.max(1, (long) NEXT_CHECK.get(store) - rowsEnded);
    }

    private static Class<?> find(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    private static VarHandle nextCheckField(Class<?> storeBase) {
        try {
            return MethodHandles.privateLookupIn(storeBase, MethodHandles.lookup())
                    .findVarHandle(storeBase, "rowCountForNextSizeCheck", long.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
