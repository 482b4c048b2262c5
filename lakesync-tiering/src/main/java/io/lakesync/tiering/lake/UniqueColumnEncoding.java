package io.lakesync.tiering.lake;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.SpecialFields;

/**
 * Write options that turn Parquet's dictionary encoding off for the columns of a primary-key table's data and
 * changelog files whose values are unique (or nearly) in every file: the primary-key columns and their
 * {@code _KEY_} copies, {@code _SEQUENCE_NUMBER} and {@code __offset}. A dictionary cannot pay off there:
 * Parquet hashes every value into it until it reaches its page size, then falls back to plain encoding and
 * re-encodes the page: about a tenth of a primary-key backfill's CPU samples (lakesync-bench README).
 *
 * <p>Only the encoding inside a column chunk changes: file format, compression, schema, statistics and what
 * readers return stay as the table's options say. A dictionary option the table sets itself (for all columns
 * or for one) is left as it is.
 */
public final class UniqueColumnEncoding {

    static final String DICTIONARY = "parquet.enable.dictionary";
    private static final String OFFSET_COLUMN = "__offset";

    private UniqueColumnEncoding() {}

    /** The options to add to a write of {@code table}; empty for a log table or files not in Parquet. */
    static Map<String, String> writeOptions(FileStoreTable table) {
        Map<String, String> writeOptions = new HashMap<>();
        for (String column : columns(table)) {
            writeOptions.put(DICTIONARY + "#" + column, "false");
        }
        return writeOptions;
    }

    /**
     * The columns of {@code table}'s data and changelog files to write without dictionary: empty for a log
     * table, files not in Parquet, or a table that sets the dictionary option itself (for all or that column).
     */
    public static List<String> columns(FileStoreTable table) {
        CoreOptions options = table.coreOptions();
        if (table.primaryKeys().isEmpty()
                || !isParquet(options.fileFormatString())
                || (options.changelogFileFormat() != null && !isParquet(options.changelogFileFormat()))
                || !options.fileFormatPerLevel().isEmpty()
                || table.options().containsKey(DICTIONARY)) {
            return List.of();
        }
        List<String> columns = new ArrayList<>();
        for (String key : table.primaryKeys()) {
            columns.add(key);
            columns.add(SpecialFields.KEY_FIELD_PREFIX + key);
        }
        columns.add(SpecialFields.SEQUENCE_NUMBER.name());
        if (table.rowType().containsField(OFFSET_COLUMN)) {
            columns.add(OFFSET_COLUMN);
        }
        columns.removeIf(column -> table.options().containsKey(DICTIONARY + "#" + column));
        return columns;
    }

    private static boolean isParquet(String format) {
        return CoreOptions.FILE_FORMAT_PARQUET.equalsIgnoreCase(format);
    }
}
