package io.lakesync.tiering.lake;

import java.util.Optional;
import java.util.OptionalLong;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.Snapshot;

/**
 * A Paimon snapshot written by Fluss tiering (commit user {@code __fluss_lake_tiering}), with the path of the
 * offsets file its {@code fluss-offsets} property names: the checkpoint the snapshot stands for.
 *
 * <p>The coordinator names that file {@code {remote.data.dir}/lake/{db}/{table}-{tableId}/metadata/{uuid}.offsets},
 * so the path proves which Fluss table the snapshot was tiered from. A table dropped and re-created under the
 * same name gets a new id: the snapshots of the dropped one do not belong to it.
 */
public record TieringSnapshot(long snapshotId, String offsetsPath) {

    private static final String METADATA_DIR = "metadata";
    private static final String OFFSETS_SUFFIX = ".offsets";

    /** {@code snapshot} as a tiering snapshot, if Fluss tiering wrote it (and named its offsets file). */
    public static Optional<TieringSnapshot> of(Snapshot snapshot) {
        String offsetsPath = snapshot.properties() == null
                ? null : snapshot.properties().get(LakeSnapshotCommitter.OFFSETS_PROPERTY);
        return LakeSnapshotCommitter.COMMIT_USER.equals(snapshot.commitUser()) && offsetsPath != null
                ? Optional.of(new TieringSnapshot(snapshot.id(), offsetsPath))
                : Optional.empty();
    }

    /** The id of the Fluss table this snapshot was tiered from, if its offsets path has the coordinator's layout. */
    public OptionalLong tableId() {
        String[] parts = offsetsPath.split("/");
        if (parts.length < 4
                || !parts[parts.length - 1].endsWith(OFFSETS_SUFFIX)
                || !parts[parts.length - 2].equals(METADATA_DIR)) {
            return OptionalLong.empty();
        }
        String tableDir = parts[parts.length - 3];
        int dash = tableDir.lastIndexOf('-');
        try {
            return dash < 0 ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(tableDir.substring(dash + 1)));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** Whether this snapshot was tiered from the Fluss table {@code tablePath} with id {@code tableId}. */
    public boolean belongsTo(TablePath tablePath, long tableId) {
        String[] parts = offsetsPath.split("/");
        return tableId().equals(OptionalLong.of(tableId))
                && parts[parts.length - 3].equals(tablePath.getTableName() + "-" + tableId)
                && parts[parts.length - 4].equals(tablePath.getDatabaseName());
    }
}
