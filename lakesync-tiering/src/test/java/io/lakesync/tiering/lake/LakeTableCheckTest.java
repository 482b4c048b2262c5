package io.lakesync.tiering.lake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.tiering.FailureKind;
import java.nio.file.Path;
import java.util.Map;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.catalog.Identifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deletion vectors are checked before Fluss's own conversion fails on them: only a partition key that is not
 * STRING is refused, naming the table, the option and the key, and the refusal blocks the table.
 */
class LakeTableCheckTest {

    private static final TablePath PATH = TablePath.of("fluss", "events");

    @TempDir
    Path warehouse;

    @Test
    void deletionVectorsWithANonStringPartitionKeyAreRefusedNamingTableOptionAndKey() throws Exception {
        TableInfo intDays = table(DataTypes.INT(), "true");
        assertThat(LakeTableCheck.deletionVectorsUnsupported(intDays))
                .contains("fluss.events", "'paimon.deletion-vectors.enabled' = 'true'", "partition key 'day' is INT",
                        "only with STRING partition keys");
        try (LakeTables lakeTables = new LakeTables(Map.of("warehouse", warehouse.toString()))) {
            lakeTables.catalog().createDatabase("fluss", true);
            lakeTables.catalog().createTable(Identifier.create("fluss", "events"),
                    org.apache.paimon.schema.Schema.newBuilder()
                            .column("id", org.apache.paimon.types.DataTypes.BIGINT())
                            .build(),
                    false);
            assertThatThrownBy(() -> LakeTableCheck.check(intDays, lakeTables.load(PATH)))
                    .isInstanceOf(LakeTableIncompatibleException.class)
                    .hasMessageContaining("partition key 'day' is INT")
                    .satisfies(e -> assertThat(FailureKind.of(e)).isEqualTo(FailureKind.BLOCKED));
        }

        assertThat(LakeTableCheck.deletionVectorsUnsupported(table(DataTypes.STRING(), "true"))).isNull();
        assertThat(LakeTableCheck.deletionVectorsUnsupported(table(DataTypes.INT(), "false"))).isNull();
    }

    private static TableInfo table(org.apache.fluss.types.DataType partitionType, String deletionVectors) {
        TableDescriptor descriptor = TableDescriptor.builder()
                .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).column("day", partitionType).build())
                .distributedBy(1, "id")
                .partitionedBy("day")
                .customProperty(LakeTableCheck.DELETION_VECTORS, deletionVectors)
                .build();
        return TableInfo.of(PATH, 1L, 1, descriptor, 0L, 0L);
    }
}
