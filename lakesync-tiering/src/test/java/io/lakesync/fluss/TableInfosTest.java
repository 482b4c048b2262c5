package io.lakesync.fluss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.tiering.TieringTestBase;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link TableInfos} against a real cluster: the admin's answers, each distinct descriptor parsed once. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TableInfosTest extends TieringTestBase {

    @Test
    void answersWhatTheAdminAnswersAndParsesADescriptorOnlyWhenItsBytesAreNew() throws Exception {
        TablePath first = TablePath.of("fluss", "infos_first");
        TablePath second = TablePath.of("fluss", "infos_second");
        createTable(first, idTable(2, "1h"));
        createTable(second, idTable(2, "1h"));
        TableInfos infos = new TableInfos(connection);

        assertSameInfo(infos.get(first).get(), admin.getTableInfo(first).get());
        assertSameInfo(infos.get(second).get(), admin.getTableInfo(second).get());
        assertSameInfo(infos.get(first).get(), admin.getTableInfo(first).get());
        assertThat(infos.parsedDescriptors()).as("two tables created alike, asked three times").isEqualTo(1);

        admin.alterTable(first, List.of(TableChange.set("table.datalake.freshness", "5min")), false).get();
        TableInfo altered = infos.get(first).get();
        assertSameInfo(altered, admin.getTableInfo(first).get());
        assertThat(altered.getTableConfig().getDataLakeFreshness().toMinutes()).isEqualTo(5);
        assertThat(infos.get(second).get().getTableConfig().getDataLakeFreshness().toHours()).isEqualTo(1);

        admin.alterTable(first, List.of(TableChange.addColumn(
                "note", DataTypes.STRING(), null, TableChange.ColumnPosition.last())), false).get();
        TableInfo widened = infos.get(first).get();
        assertSameInfo(widened, admin.getTableInfo(first).get());
        assertThat(widened.getSchemaId()).isGreaterThan(altered.getSchemaId());
        assertThat(widened.getRowType().getFieldNames()).endsWith("note");
        assertThat(infos.parsedDescriptors()).as("after a property change and a new column").isEqualTo(3);
    }

    @Test
    void aMissingTableFailsAsTheAdminFails() {
        TablePath missing = TablePath.of("fluss", "infos_missing");
        TableInfos infos = new TableInfos(connection);

        assertThatThrownBy(() -> infos.get(missing).get()).hasRootCauseInstanceOf(TableNotExistException.class);
        assertThatThrownBy(() -> admin.getTableInfo(missing).get())
                .hasRootCauseInstanceOf(TableNotExistException.class);
    }

    private static void assertSameInfo(TableInfo actual, TableInfo expected) {
        assertThat(actual.getTablePath()).isEqualTo(expected.getTablePath());
        assertThat(actual.getTableId()).isEqualTo(expected.getTableId());
        assertThat(actual.getSchemaId()).isEqualTo(expected.getSchemaId());
        assertThat(actual.toTableDescriptor()).isEqualTo(expected.toTableDescriptor());
        assertThat(actual.getCreatedTime()).isEqualTo(expected.getCreatedTime());
        assertThat(actual.getModifiedTime()).isEqualTo(expected.getModifiedTime());
    }
}
