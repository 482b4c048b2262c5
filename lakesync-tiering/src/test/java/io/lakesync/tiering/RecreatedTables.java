package io.lakesync.tiering;

import static io.lakesync.local.Eventually.eventually;
import static io.lakesync.tiering.TieringTestBase.SYNC_TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.lake.LakeSnapshotCommitter;
import io.lakesync.tiering.lake.TieringSnapshot;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;

/**
 * Issue 15's scenario on the test cluster of {@link TieringTestBase}: 3-bucket tables dropped and re-created
 * under the same name without lake sync, written to, then enabled by ALTER.
 */
public final class RecreatedTables {

    public static final int BUCKETS = 3;

    private RecreatedTables() {}

    /** A log table of one BIGINT column {@code id}, freshness 1 s. */
    public static TableDescriptor logTable(boolean lakeEnabled) {
        return descriptor(Schema.newBuilder().column("id", DataTypes.BIGINT()).build(), lakeEnabled);
    }

    /** A primary-key table of one BIGINT column {@code id}, freshness 1 s. */
    public static TableDescriptor pkTable(boolean lakeEnabled) {
        return descriptor(
                Schema.newBuilder().column("id", DataTypes.BIGINT().copy(false)).primaryKey("id").build(), lakeEnabled);
    }

    /**
     * Drops {@code path} (its lake table is retained), waits until Fluss completed the drop, creates it again with
     * {@code descriptor} and writes {@code rows} (upserts when {@code pk}); returns the new table id.
     */
    public static long recreate(TablePath path, TableDescriptor descriptor, List<InternalRow> rows, boolean pk)
            throws Exception {
        TieringSnapshot dropped =
                new LakeSnapshotCommitter(TieringTestBase.lake.load(path), false).latestTieringSnapshot().orElseThrow();
        TieringTestBase.admin.dropTable(path, false).get();
        // Fluss deletes the dropped table's offsets folder when the drop completes. Before that, an ALTER of the
        // re-created table is lost in the coordinator (Fluss 0.9.1: NullPointerException in
        // processTableRegistrationChange), so this waits for it.
        Path droppedDir = localPath(dropped.offsetsPath()).getParent().getParent();
        eventually(SYNC_TIMEOUT, () -> assertThat(droppedDir).doesNotExist());
        long newId = TieringTestBase.createTable(path, descriptor).getTableId();
        // A fresh connection: the shared one may still route the name to the dropped table's id.
        try (Connection fresh = ConnectionFactory.createConnection(TieringTestBase.cluster.clientConfiguration());
                Table table = fresh.getTable(path)) {
            if (pk) {
                UpsertWriter writer = table.newUpsert().createWriter();
                rows.forEach(writer::upsert);
                writer.flush();
            } else {
                AppendWriter writer = table.newAppend().createWriter();
                rows.forEach(writer::append);
                writer.flush();
            }
        }
        return newId;
    }

    /** {@code ALTER TABLE path SET ('table.datalake.enabled' = 'true')}, as a SQL user would. */
    public static void enableByAlter(TablePath path) throws Exception {
        TieringTestBase.admin.alterTable(path, List.of(TableChange.set("table.datalake.enabled", "true")), false).get();
    }

    /** Waits until the readable lake snapshot covers every record, asking a fresh connection. */
    public static void awaitTieredFresh(TablePath path) throws Exception {
        eventually(SYNC_TIMEOUT, () -> {
            try (Connection fresh = ConnectionFactory.createConnection(TieringTestBase.cluster.clientConfiguration())) {
                Admin freshAdmin = fresh.getAdmin();
                long tableId = freshAdmin.getTableInfo(path).get().getTableId();
                Map<Integer, Long> ends =
                        freshAdmin.listOffsets(path, List.of(0, 1, 2), new OffsetSpec.LatestSpec()).all().get();
                Map<TableBucket, Long> tiered = freshAdmin.getReadableLakeSnapshot(path).get().getTableBucketsOffset();
                ends.forEach((bucket, end) -> {
                    if (end > 0) {
                        assertThat(tiered).containsEntry(new TableBucket(tableId, bucket), end);
                    }
                });
            }
        });
    }

    /** The {@code id} column of every row in the lake table. */
    public static List<Long> lakeIds(TablePath path) throws Exception {
        return TieringTestBase.readLake(path, "id").stream().map(row -> (Long) row.get(0)).toList();
    }

    /** The local file an offsets path of the test cluster names. */
    public static Path localPath(String offsetsPath) {
        return offsetsPath.startsWith("file:") ? Path.of(URI.create(offsetsPath)) : Path.of(offsetsPath);
    }

    private static TableDescriptor descriptor(Schema schema, boolean lakeEnabled) {
        return TableDescriptor.builder()
                .schema(schema)
                .distributedBy(BUCKETS, "id")
                .property("table.datalake.enabled", String.valueOf(lakeEnabled))
                .property("table.datalake.freshness", "1s")
                .build();
    }
}
