package io.lakesync.tiering.columnar.write;

import io.lakesync.config.LakeSyncOptions;
import io.lakesync.tiering.lake.LakeWriter;
import javax.annotation.Nullable;
import org.apache.paimon.table.FileStoreTable;

/** Which columnar writer writes a lake table's data files: the one rule for rounds and the warm-up alike. */
public final class ColumnarWriters {

    private ColumnarWriters() {}

    /**
     * Why no columnar writer can write the table's data files, or null when one can; {@code primaryKeyTables}:
     * {@code tiering.columnar-write-primary-key}.
     */
    public static @Nullable String unsupportedReason(FileStoreTable table, boolean primaryKeyTables) {
        if (table.primaryKeys().isEmpty()) {
            return ParquetAppendWriter.unsupportedReason(table);
        }
        return primaryKeyTables
                ? ParquetKeyValueWriter.unsupportedReason(table)
                : LakeSyncOptions.TIERING_COLUMNAR_WRITE_PRIMARY_KEY.key() + " is off";
    }

    /** The table's columnar writer; call only when {@link #unsupportedReason} is null. */
    public static LakeWriter open(FileStoreTable table) {
        return table.primaryKeys().isEmpty() ? new ParquetAppendWriter(table) : new ParquetKeyValueWriter(table);
    }
}
