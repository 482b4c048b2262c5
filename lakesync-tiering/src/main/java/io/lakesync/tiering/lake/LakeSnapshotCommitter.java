package io.lakesync.tiering.lake;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.Snapshot;
import org.apache.paimon.manifest.ManifestCommittable;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.TableCommitImpl;
import org.apache.paimon.utils.SnapshotManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits tiered data files as one Paimon snapshot, the lake half of a tiering checkpoint, exactly as Fluss's
 * tiering does: commit user {@value #COMMIT_USER}, snapshot property {@value #OFFSETS_PROPERTY} = path of the
 * offsets file the coordinator prepared for this round.
 *
 * <p>Unlike Fluss 0.9.1's committer, a failed commit is not followed by deleting the data files: the
 * offsets path is unique per round, so the snapshot that carries it is looked up to tell a commit that
 * landed despite the error from one that did not ({@link LakeCommitOutcome}).
 *
 * <p>The commit is conditional: it lands only if no other tiering snapshot landed after the round's fence
 * ({@link FencedCatalogEnvironment}), so an owner that stalled past its fence can never land a round the
 * table's next owner already tiered.
 */
public final class LakeSnapshotCommitter {

    public static final String COMMIT_USER = "__fluss_lake_tiering";
    public static final String OFFSETS_PROPERTY = "fluss-offsets";

    private static final Logger LOG = LoggerFactory.getLogger(LakeSnapshotCommitter.class);
    /** How many snapshots back to look for one's own commit; other writers rarely commit in between. */
    private static final int LOOKBACK_SNAPSHOTS = 50;

    /** The lake table with the round's write options, on the fence; built once (one schema validation). */
    private final FileStoreTable table;
    private final FencedCatalogEnvironment fence;

    public LakeSnapshotCommitter(FileStoreTable table, boolean autoExpireSnapshots) {
        this.fence = new FencedCatalogEnvironment(table.catalogEnvironment());
        Options writeOptions = new Options();
        writeOptions.set(CoreOptions.WRITE_ONLY, !autoExpireSnapshots);
        // A refused attempt is retried by Paimon and refused again: with Paimon's 10 s cap on the wait between
        // attempts a refused round would take about ten seconds to give up, with 1 s about three.
        writeOptions.set(CoreOptions.COMMIT_MAX_RETRY_WAIT, Duration.ofSeconds(1));
        this.table = FileStoreTableFactory.create(table.fileIO(), table.location(), table.schema(), writeOptions, fence);
    }

    /** The id of the newest snapshot of any writer, or 0 for a table without snapshots. */
    public long latestSnapshotId() {
        Long id = table.snapshotManager().latestSnapshotId();
        return id == null ? 0 : id;
    }

    /** The newest snapshot written by Fluss tiering (by lakesync or by Fluss's Flink job), if any. */
    public Optional<TieringSnapshot> latestTieringSnapshot() throws IOException, LakeTableIncompatibleException {
        SnapshotManager snapshots = table.snapshotManager();
        Long id = snapshots.pickOrLatest(s -> COMMIT_USER.equals(s.commitUser()));
        if (id == null) {
            return Optional.empty();
        }
        Snapshot snapshot = snapshots.tryGetSnapshot(id);
        if (!COMMIT_USER.equals(snapshot.commitUser())) {
            return Optional.empty();
        }
        String offsetsPath = snapshot.properties() == null ? null : snapshot.properties().get(OFFSETS_PROPERTY);
        if (offsetsPath == null || offsetsPath.startsWith("{")) {
            throw new LakeTableIncompatibleException(
                    "Paimon snapshot " + id + " of " + table.name() + " was committed by Fluss tiering but its '"
                            + OFFSETS_PROPERTY + "' property is " + (offsetsPath == null ? "missing" : "inline JSON")
                            + "; it was written by a Fluss version before 0.9 and cannot be resumed from. Let a "
                            + "Fluss 0.9 tiering job commit once, or re-create the lake table, to resume syncing.");
        }
        return Optional.of(new TieringSnapshot(id, offsetsPath));
    }

    /**
     * Commits {@code messages} as one snapshot recording {@code offsetsPath}, unless a tiering snapshot landed
     * after snapshot {@code fencedAt} (the newest snapshot when the round's fence passed). Messages that also
     * compact land as an APPEND and a COMPACT snapshot, both recording {@code offsetsPath}; the newest of them
     * is the one committed.
     */
    public LakeCommitOutcome commit(List<CommitMessage> messages, String offsetsPath, long fencedAt) {
        try {
            // Most late commits come long after the next owner's: refuse them without a round of Paimon retries.
            Long landed =
                    FencedCatalogEnvironment.tieringSnapshotAfter(
                            fencedAt, latestSnapshotId() + 1, table.snapshotManager(), offsetsPath);
            if (landed != null) {
                return new LakeCommitOutcome.Refused(landed);
            }
        } catch (IOException | RuntimeException e) {
            return new LakeCommitOutcome.RetryableFailure(e);
        }
        ManifestCommittable committable = new ManifestCommittable(commitIdentifier(offsetsPath));
        messages.forEach(committable::addFileCommittable);
        committable.addProperty(OFFSETS_PROPERTY, offsetsPath);
        fence.fence(fencedAt, offsetsPath);
        Exception failure;
        try (TableCommitImpl commit = table.newCommit(COMMIT_USER)) {
            commit.commit(committable);
            failure = null;
        } catch (Exception e) {
            failure = e;
        }
        Long refusedFor = fence.refused();
        if (refusedFor != null) {
            return new LakeCommitOutcome.Refused(refusedFor);
        }
        Optional<Long> landed;
        try {
            landed = findSnapshotWith(offsetsPath);
        } catch (IOException | RuntimeException e) {
            Exception cause = failure != null ? failure : e;
            return new LakeCommitOutcome.Unknown(cause);
        }
        if (landed.isPresent()) {
            if (failure != null) {
                LOG.warn("Paimon commit of {} reported '{}' but snapshot {} landed", table.name(), failure, landed.get());
            }
            return new LakeCommitOutcome.Committed(landed.get());
        }
        return failure != null
                ? new LakeCommitOutcome.RetryableFailure(failure)
                : new LakeCommitOutcome.Unknown(
                        new IllegalStateException("Paimon commit returned but no snapshot records " + offsetsPath));
    }

    /**
     * The round's own Paimon commit identifier. When a snapshot attempt loses to a snapshot that landed meanwhile,
     * Paimon takes any snapshot of the same user and identifier since its base as its own commit having landed; with
     * one identifier for every round, another owner's snapshot would pass for this round's, and the round would end
     * in an unknown outcome instead of being refused by the fence. Derived from the offsets path (one per round), so
     * a retried commit of the same round is still recognised.
     */
    static long commitIdentifier(String offsetsPath) {
        return UUID.nameUUIDFromBytes(offsetsPath.getBytes(StandardCharsets.UTF_8)).getMostSignificantBits()
                & Long.MAX_VALUE;
    }

    /** Deletes data files of a commit that provably did not land. */
    public void abort(List<CommitMessage> messages) {
        try (TableCommitImpl commit = table.newCommit(COMMIT_USER)) {
            commit.abort(messages);
        } catch (Exception e) {
            LOG.warn("Could not delete the data files of an aborted round of {}: {}", table.name(), e.toString());
        }
    }

    private Optional<Long> findSnapshotWith(String offsetsPath) throws IOException {
        SnapshotManager snapshots = table.snapshotManager();
        Long latest = snapshots.latestSnapshotId();
        if (latest == null) {
            return Optional.empty();
        }
        // Almost always the commit is the newest snapshot: the earliest id is only read when looking further.
        if (carries(snapshots, latest, offsetsPath)) {
            return Optional.of(latest);
        }
        Long earliest = snapshots.earliestSnapshotId();
        long stop = Math.max(earliest == null ? 1 : earliest, latest - LOOKBACK_SNAPSHOTS);
        for (long id = latest - 1; id >= stop; id--) {
            if (carries(snapshots, id, offsetsPath)) {
                return Optional.of(id);
            }
        }
        return Optional.empty();
    }

    /** Whether snapshot {@code id} is a tiering commit recording {@code offsetsPath} (false once expired). */
    private static boolean carries(SnapshotManager snapshots, long id, String offsetsPath) throws IOException {
        Snapshot snapshot;
        try {
            snapshot = snapshots.tryGetSnapshot(id);
        } catch (FileNotFoundException expired) {
            return false;
        }
        return COMMIT_USER.equals(snapshot.commitUser())
                && snapshot.properties() != null
                && Objects.equals(offsetsPath, snapshot.properties().get(OFFSETS_PROPERTY));
    }
}
