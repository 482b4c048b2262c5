package io.lakesync.tiering.columnar.write;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.paimon.format.parquet.ParquetSchemaConverter;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;

class ParquetSchemasTest {

    @Test
    void aRowTypeIsConvertedOnceAndAnEqualOneSharesTheSchema() {
        RowType first = RowType.of(DataTypes.BIGINT(), DataTypes.STRING());
        RowType equal = RowType.of(DataTypes.BIGINT(), DataTypes.STRING());
        RowType widened = RowType.of(DataTypes.BIGINT(), DataTypes.STRING(), DataTypes.INT());

        assertThat(ParquetSchemas.of(first)).isEqualTo(ParquetSchemaConverter.convertToParquetMessageType(first));
        assertThat(ParquetSchemas.of(equal)).isSameAs(ParquetSchemas.of(first));
        assertThat(ParquetSchemas.of(widened).getFieldCount()).as("a changed schema is converted anew").isEqualTo(3);
    }
}
