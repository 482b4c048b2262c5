package io.lakesync.tiering.lake;

import java.util.List;
import javax.annotation.Nullable;
import org.apache.fluss.lake.paimon.utils.PaimonConversions;
import org.apache.fluss.metadata.TableInfo;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeRoot;

/**
 * Checks, before a round writes, that the Paimon table still has the layout Fluss created it with: the
 * Fluss columns in order with their types, then the three system columns, the same primary key, partition
 * keys and bucket count. Both schemas must be read fresh: a column Fluss added is in both (Fluss alters the
 * lake first, inserting it before the system columns), so any difference is a change made outside Fluss.
 * Says precisely what differs. Deletion vectors are tiered (see {@link LakeReadability}) except with a partition
 * key that is not STRING, which Fluss itself cannot build a lake table for.
 */
public final class LakeTableCheck {

    private static final String TIMESTAMP_COLUMN = "__timestamp";
    public static final String DELETION_VECTORS = "paimon.deletion-vectors.enabled";

    private LakeTableCheck() {}

    public static void check(TableInfo flussTable, FileStoreTable lakeTable) throws LakeTableIncompatibleException {
        String name = flussTable.getTablePath().toString();
        String unsupported = deletionVectorsUnsupported(flussTable);
        if (unsupported != null) {
            throw new LakeTableIncompatibleException(unsupported);
        }
        Schema expected = PaimonConversions.toPaimonSchema(flussTable.toTableDescriptor());
        List<DataField> want = expected.fields();
        List<DataField> have = lakeTable.rowType().getFields();
        if (have.size() != want.size()) {
            throw mismatch(name, "it has " + have.size() + " columns " + names(have) + ", the Fluss table needs "
                    + want.size() + " " + names(want));
        }
        for (int i = 0; i < want.size(); i++) {
            requireSame(name, want.get(i), have.get(i));
        }
        if (!lakeTable.primaryKeys().equals(expected.primaryKeys())) {
            throw mismatch(name, "primary key is " + lakeTable.primaryKeys() + ", Fluss has " + expected.primaryKeys());
        }
        if (!lakeTable.partitionKeys().equals(expected.partitionKeys())) {
            throw mismatch(name, "partition keys are " + lakeTable.partitionKeys() + ", Fluss has " + expected.partitionKeys());
        }
        String wantBuckets = expected.options().get(CoreOptions.BUCKET.key());
        String haveBuckets = String.valueOf(lakeTable.coreOptions().bucket());
        if (wantBuckets != null && !wantBuckets.equals(haveBuckets)) {
            throw mismatch(name, "bucket count is " + haveBuckets + ", Fluss has " + wantBuckets);
        }
    }

    /**
     * Why the Fluss table cannot be tiered with deletion vectors, or null if it can (or does not set them): Fluss
     * 0.9.1 builds deletion-vector lake tables only with STRING partition keys, as its union read matches lake
     * partitions to Fluss partitions by name. Fluss refuses such a CREATE, but not a table that sets the option
     * while lake sync is off, until lake sync is turned on.
     */
    @Nullable
    public static String deletionVectorsUnsupported(TableInfo table) {
        String value = table.getCustomProperties().toMap().get(DELETION_VECTORS);
        if (value == null) {
            value = table.getProperties().toMap().get(DELETION_VECTORS);
        }
        if (!Boolean.parseBoolean(value)) {
            return null;
        }
        for (String key : table.getPartitionKeys()) {
            var type = table.getRowType().getField(key).getType();
            if (type.getTypeRoot() != org.apache.fluss.types.DataTypeRoot.STRING) {
                return "Table " + table.getTablePath() + " sets '" + DELETION_VECTORS + "' = 'true' but its partition key '"
                        + key + "' is " + type.asSummaryString() + ": Fluss 0.9.1 supports deletion vectors only with "
                        + "STRING partition keys. Re-create the table with STRING partition keys or without '"
                        + DELETION_VECTORS + "'.";
            }
        }
        return null;
    }

    private static void requireSame(String table, DataField want, DataField have) throws LakeTableIncompatibleException {
        if (!want.name().equals(have.name())) {
            throw mismatch(table, "column '" + have.name() + "' stands where Fluss has '" + want.name() + "'");
        }
        if (!sameType(want.name(), want.type(), have.type())) {
            throw mismatch(
                    table, "column '" + want.name() + "' has type " + have.type() + ", Fluss has " + want.type());
        }
    }

    private static boolean sameType(String column, DataType want, DataType have) {
        if (want.copy(true).equals(have.copy(true))) {
            return true;
        }
        // Tables tiered by older Fluss versions carry __timestamp with precision 6; Fluss accepts both.
        return column.equals(TIMESTAMP_COLUMN)
                && have.getTypeRoot() == DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                && want.getTypeRoot() == DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    private static String names(List<DataField> fields) {
        return fields.stream().map(DataField::name).toList().toString();
    }

    private static LakeTableIncompatibleException mismatch(String table, String what) {
        return new LakeTableIncompatibleException(
                "Lake table of " + table + " was changed outside Fluss: " + what
                        + ". Restore its schema in Paimon (or drop the lake table and disable and re-enable the "
                        + "Fluss table) to resume syncing.");
    }
}
