package io.lakesync.tiering.columnar.write;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.paimon.format.parquet.ParquetSchemaConverter;
import org.apache.paimon.shade.org.apache.parquet.schema.MessageType;
import org.apache.paimon.types.RowType;

/**
 * The Parquet schemas of Paimon row types, converted once per row type: each round of a table opens its writers
 * anew and converted its schema twice (once to check it, once to write), and on two hundred one-round tables
 * that conversion was among the largest methods the JIT compiled while they synced. Parquet's schema types are
 * immutable, so one instance serves every writer of that row type.
 */
final class ParquetSchemas {

    /** Past this many row types (schema changes, tables of many shapes) the cache starts over. */
    private static final int MAX_ROW_TYPES = 1024;
    private static final Map<RowType, MessageType> SCHEMAS = new ConcurrentHashMap<>();

    private ParquetSchemas() {}

    static MessageType of(RowType rowType) {
        MessageType schema = SCHEMAS.get(rowType);
        if (schema == null) {
            if (SCHEMAS.size() >= MAX_ROW_TYPES) {
                SCHEMAS.clear();
            }
            schema = ParquetSchemaConverter.convertToParquetMessageType(rowType);
            SCHEMAS.put(rowType, schema);
        }
        return schema;
    }
}
