package io.lakesync.tiering;

import static io.lakesync.local.Eventually.eventually;
import static io.lakesync.tiering.RecreatedTables.awaitTieredFresh;
import static io.lakesync.tiering.RecreatedTables.enableByAlter;
import static io.lakesync.tiering.RecreatedTables.lakeIds;
import static io.lakesync.tiering.RecreatedTables.localPath;
import static io.lakesync.tiering.RecreatedTables.logTable;
import static io.lakesync.tiering.RecreatedTables.pkTable;
import static io.lakesync.tiering.RecreatedTables.recreate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.fluss.RegisteredSnapshot;
import io.lakesync.fluss.tiering.FlussTieringCoordinator;
import io.lakesync.fluss.tiering.LakeSnapshotCommit;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.fluss.tiering.TieringCoordinator;
import io.lakesync.tiering.lake.LakeSnapshotCommitter;
import io.lakesync.tiering.lake.LakeTableIncompatibleException;
import io.lakesync.tiering.lake.TieringSnapshot;
import io.lakesync.tiering.retained.AdoptionRefusedException;
import io.lakesync.tiering.retained.CheckpointRepair;
import io.lakesync.tiering.retained.CheckpointRepairedException;
import io.lakesync.tiering.retained.LakeTableAdoption;
import io.lakesync.tiering.retained.RetainedLakeDataException;
import io.lakesync.tiering.retained.SnapshotRegistration;
import io.lakesync.tiering.round.RoundHooks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.PartitionSpec;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: a lake-enabled table dropped, re-created without lake sync, written to, then enabled by ALTER. The
 * retained lake table holds the dropped table's rows; lakesync never registers the dropped table's snapshot for
 * the new one, blocks the table naming the choices, and after {@code adopt} (or deleting the lake table) tiers
 * every new row exactly once. A coordinator checkpoint whose offsets file is gone is detected and repaired.
 */
class RecreateAndAdoptTest extends TieringTestBase {

    private static final TablePath LOG_TABLE = TablePath.of("recreate", "events");
    private static final TablePath PK_TABLE = TablePath.of("recreate", "accounts");
    private static final TablePath BROKEN = TablePath.of("recreate", "broken");
    private static final TablePath CLICKS = TablePath.of("recreate", "clicks");

    private final List<Object[]> failures = Collections.synchronizedList(new ArrayList<>());
    private TieringService service;
    private TieringCoordinator coordinator;

    @BeforeEach
    void startEngine() throws Exception {
        admin.createDatabase("recreate", DatabaseDescriptor.EMPTY, true).get();
        coordinator = FlussTieringCoordinator.of(connection);
        service = engine();
    }

    private TieringService engine() throws Exception {
        TieringListener listener = new TieringListener() {
            @Override
            public void roundFailed(TableAssignment assignment, Throwable cause, FailureKind kind, Duration retryIn) {
                failures.add(new Object[] {assignment.tablePath(), kind, cause});
            }
        };
        TieringService engine = new TieringService(
                serviceConfig("recreate-" + System.nanoTime(), Map.of("tiering.blocked-recheck-interval", "500ms")),
                listener, RoundHooks.NONE, Clock.systemUTC());
        engine.start();
        return engine;
    }

    @AfterEach
    void stopEngine() throws Exception {
        service.close();
    }

    @Test
    void logTableIsBlockedThenAdoptedWithEveryNewRowOnce() throws Exception {
        long oldId = createTable(LOG_TABLE, logTable(true)).getTableId();
        append(LOG_TABLE, ids(0, 3_000));
        awaitTiered(LOG_TABLE);

        long newId = recreate(LOG_TABLE, logTable(false), ids(10_000, 10_600), false);
        enableByAlter(LOG_TABLE);

        Throwable blocked = awaitFailure(LOG_TABLE, FailureKind.BLOCKED, RetainedLakeDataException.class, "");
        assertThat(blocked.getMessage())
                .contains("Lake table recreate.events holds 3000 rows tiered from a dropped Fluss table")
                .contains("id " + oldId)
                .contains("current table (id " + newId + ")")
                .contains("lakesync tables adopt recreate.events")
                .contains("delete-retained");
        assertThatThrownBy(() -> admin.getLatestLakeSnapshot(LOG_TABLE).get())
                .as("nothing of the dropped table is registered for the new one")
                .hasCauseInstanceOf(LakeTableSnapshotNotExistException.class);

        LakeTableAdoption adoption = new LakeTableAdoption(fluss, coordinator, lake);
        LakeTableAdoption.Adopted adopted = adoption.adopt(LOG_TABLE, false);
        assertThat(adopted.tableId()).isEqualTo(newId);
        assertThat(adopted.retainedRows()).isEqualTo(3_000L);
        assertThat(RegisteredSnapshot.read(fluss, LOG_TABLE).snapshot()).isNotNull();
        assertThatThrownBy(() -> adoption.adopt(LOG_TABLE, false))
                .isInstanceOf(AdoptionRefusedException.class)
                .hasMessageContaining("does not need adopting");

        awaitTieredFresh(LOG_TABLE);
        List<Long> ids = lakeIds(LOG_TABLE);
        assertThat(ids).hasSize(3_600).doesNotHaveDuplicates();
        assertThat(ids.stream().filter(id -> id >= 10_000)).hasSize(600);
        assertThat(RegisteredSnapshot.read(fluss, LOG_TABLE).unreadable()).isFalse();
    }

    @Test
    void primaryKeyTableNeedsTheFlagAndStartsCleanAfterDeletingTheRetainedLakeTable() throws Exception {
        long oldId = createTable(PK_TABLE, pkTable(true)).getTableId();
        upsert(PK_TABLE, ids(0, 3_000), false);
        awaitTiered(PK_TABLE);
        TieringSnapshot oldSnapshot =
                new LakeSnapshotCommitter(lake.load(PK_TABLE), false).latestTieringSnapshot().orElseThrow();
        assertThat(oldSnapshot.tableId()).hasValue(oldId);

        long newId = recreate(PK_TABLE, pkTable(false), ids(10_000, 10_600), true);
        // What an older lakesync (or Fluss's own job) left: the dropped table's snapshot registered for the new
        // id, its offsets file deleted with the dropped table, so every read of the checkpoint fails.
        coordinator.commitLakeSnapshot(new LakeSnapshotCommit(
                newId, oldSnapshot.snapshotId(), oldSnapshot.offsetsPath(), Map.of(), Map.of()));
        assertThat(RegisteredSnapshot.read(fluss, PK_TABLE).unreadableReason())
                .contains("Failed to get lake table snapshot for table: recreate.accounts");
        enableByAlter(PK_TABLE);

        Throwable blocked = awaitFailure(PK_TABLE, FailureKind.BLOCKED, RetainedLakeDataException.class, "");
        assertThat(blocked.getMessage())
                .contains("could not be read")
                .contains("lakesync tables adopt recreate.accounts --keep-old-keys");
        assertThatThrownBy(() -> new LakeTableAdoption(fluss, coordinator, lake).adopt(PK_TABLE, false))
                .isInstanceOf(AdoptionRefusedException.class)
                .hasMessageContaining("has a primary key")
                .hasMessageContaining("--keep-old-keys");

        // delete-retained, then enable: the lake table starts afresh and holds only the new table's rows.
        admin.alterTable(PK_TABLE, List.of(TableChange.set("table.datalake.enabled", "false")), false).get();
        lake.catalog().dropTable(Identifier.create("recreate", "accounts"), false);
        enableByAlter(PK_TABLE);
        awaitFailure(PK_TABLE, FailureKind.TRANSIENT, CheckpointRepairedException.class, "");
        awaitTieredFresh(PK_TABLE);
        List<Long> ids = lakeIds(PK_TABLE);
        assertThat(ids).hasSize(600).doesNotHaveDuplicates().allSatisfy(id -> assertThat(id).isBetween(10_000L, 10_599L));
        assertThat(RegisteredSnapshot.read(fluss, PK_TABLE).unreadable()).isFalse();
    }

    @Test
    void checkpointWhoseOffsetsFileWasDeletedIsRepaired() throws Exception {
        long tableId = createTable(BROKEN, logTable(true)).getTableId();
        append(BROKEN, ids(0, 1_000));
        awaitTiered(BROKEN);
        append(BROKEN, ids(1_000, 1_500));
        awaitTiered(BROKEN);

        // An entry pointing to an older snapshot's offsets file, which the coordinator deleted when it moved on,
        // while the lake's newest snapshot names a file that exists: that one is registered again. (Registering
        // the old entry makes the coordinator discard the newest file, so it is put back, engine stopped.)
        service.close();
        TieringSnapshot first = CheckpointRepair.tieringSnapshot(lake.load(BROKEN), 1).orElseThrow();
        TieringSnapshot newest = new LakeSnapshotCommitter(lake.load(BROKEN), false).latestTieringSnapshot().orElseThrow();
        byte[] newestOffsets = Files.readAllBytes(localPath(newest.offsetsPath()));
        assertThat(localPath(first.offsetsPath())).doesNotExist();
        coordinator.commitLakeSnapshot(new LakeSnapshotCommit(tableId, 1, first.offsetsPath(), Map.of(), Map.of()));
        eventually(SYNC_TIMEOUT, () -> assertThat(localPath(newest.offsetsPath())).doesNotExist());
        Files.write(localPath(newest.offsetsPath()), newestOffsets);
        assertThat(RegisteredSnapshot.read(fluss, BROKEN).unreadable()).isTrue();
        service = engine();
        assertThat(awaitFailure(BROKEN, FailureKind.TRANSIENT, CheckpointRepairedException.class, "again").getMessage())
                .contains("could not be read")
                .contains("registered the lake's own checkpoint");
        eventually(SYNC_TIMEOUT, () -> assertThat(RegisteredSnapshot.read(fluss, BROKEN).snapshot()).isNotNull());

        // Every offsets file of the table deleted: the offsets are rebuilt from the lake's rows.
        TieringSnapshot registered =
                new LakeSnapshotCommitter(lake.load(BROKEN), false).latestTieringSnapshot().orElseThrow();
        try (Stream<Path> files = Files.list(localPath(registered.offsetsPath()).getParent())) {
            for (Path file : files.filter(file -> file.toString().endsWith(".offsets")).toList()) {
                Files.delete(file);
            }
        }
        append(BROKEN, ids(1_500, 2_000));
        assertThat(awaitFailure(BROKEN, FailureKind.TRANSIENT, CheckpointRepairedException.class, "rebuilt").getMessage())
                .contains("could not be read")
                .contains("rebuilt it from the rows in the lake");
        awaitTieredFresh(BROKEN);
        assertThat(lakeIds(BROKEN)).hasSize(2_000).doesNotHaveDuplicates();
    }

    @Test
    void aPartitionedTableWhoseCheckpointCannotBeRebuiltIsBlockedWithTheWayOut() throws Exception {
        TablePath path = TablePath.of("recreate", "partitioned");
        partitionedTableTiered(path);
        Files.delete(localPath(
                new LakeSnapshotCommitter(lake.load(path), false).latestTieringSnapshot().orElseThrow().offsetsPath()));

        assertThat(awaitFailure(path, FailureKind.BLOCKED, LakeTableIncompatibleException.class, "").getMessage())
                .contains("The coordinator's checkpoint of recreate.partitioned cannot be read")
                .contains("partitioned table is not supported")
                .contains("delete-retained");
    }

    @Test
    void aSnapshotRegisteredAgainWhileTheCoordinatorHoldsItKeepsThePartitionedCheckpointReadable() throws Exception {
        TablePath path = TablePath.of("recreate", "registered_twice");
        TableInfo table = partitionedTableTiered(path);
        service.close();

        // Two rounds around a coordinator restart that both found the lake's newest snapshot missing.
        FileStoreTable lakeTable = lake.load(path);
        TieringSnapshot newest = new LakeSnapshotCommitter(lakeTable, false).latestTieringSnapshot().orElseThrow();
        SnapshotRegistration.registerAgain(fluss, coordinator, table, lakeTable, newest);
        SnapshotRegistration.registerAgain(fluss, coordinator, table, lakeTable, newest);
        assertThat(RegisteredSnapshot.read(fluss, path).unreadable()).isFalse();
        assertThat(RegisteredSnapshot.read(fluss, path).snapshot().getSnapshotId()).isEqualTo(newest.snapshotId());

        // What the copy guards against: Fluss 0.9.1 deletes the file of the entry it replaces, the new one's too.
        String offsetsPath = coordinator.prepareFreshLakeSnapshot(table.getTableId(), path,
                fluss.latestLakeSnapshot(path).get().getTableBucketsOffset());
        LakeSnapshotCommit sameFile =
                new LakeSnapshotCommit(table.getTableId(), newest.snapshotId(), offsetsPath, Map.of(), Map.of());
        coordinator.commitLakeSnapshot(sameFile);
        assertThat(RegisteredSnapshot.read(fluss, path).unreadable()).isFalse();
        coordinator.commitLakeSnapshot(sameFile);
        eventually(SYNC_TIMEOUT, () -> assertThat(RegisteredSnapshot.read(fluss, path).unreadable()).isTrue());
        service = engine();
    }

    /** A lake-enabled table partitioned by day, with one row tiered. */
    private TableInfo partitionedTableTiered(TablePath path) throws Exception {
        TableInfo table = createTable(path, TableDescriptor.builder()
                .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).column("dt", DataTypes.STRING()).build())
                .partitionedBy("dt")
                .distributedBy(1, "id")
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "1s")
                .build());
        admin.createPartition(path, new PartitionSpec(Map.of("dt", "2026-11-30")), false).get();
        append(path, List.of(GenericRow.of(1L, BinaryString.fromString("2026-11-30"))));
        awaitTiered(path);
        return table;
    }

    @Test
    void aDroppedTablesSnapshotRegisteredForTheNewTableIsRecognisedEvenWhenReadable() throws Exception {
        createTable(CLICKS, logTable(true));
        append(CLICKS, ids(0, 300));
        awaitTiered(CLICKS);
        TieringSnapshot dropped = new LakeSnapshotCommitter(lake.load(CLICKS), false).latestTieringSnapshot().orElseThrow();
        byte[] droppedOffsets = Files.readAllBytes(localPath(dropped.offsetsPath()));

        long newId = recreate(CLICKS, logTable(false), ids(10_000, 10_100), false);
        // Had the dropped table's offsets file survived, registering its snapshot for the new id reads fine and
        // the new table would start at the old table's offsets.
        Files.createDirectories(localPath(dropped.offsetsPath()).getParent());
        Files.write(localPath(dropped.offsetsPath()), droppedOffsets);
        coordinator.commitLakeSnapshot(
                new LakeSnapshotCommit(newId, dropped.snapshotId(), dropped.offsetsPath(), Map.of(), Map.of()));
        assertThat(RegisteredSnapshot.read(fluss, CLICKS).snapshot()).isNotNull();
        enableByAlter(CLICKS);

        assertThat(awaitFailure(CLICKS, FailureKind.BLOCKED, RetainedLakeDataException.class, "").getMessage())
                .contains("The snapshot registered for it (" + dropped.snapshotId() + ") is the dropped table's")
                .contains("lakesync tables adopt recreate.clicks");
        new LakeTableAdoption(fluss, coordinator, lake).adopt(CLICKS, false);
        awaitTieredFresh(CLICKS);
        List<Long> ids = lakeIds(CLICKS);
        assertThat(ids).hasSize(400).doesNotHaveDuplicates();
        assertThat(ids.stream().filter(id -> id >= 10_000)).hasSize(100);
    }

    private Throwable awaitFailure(TablePath path, FailureKind kind, Class<? extends Throwable> type, String containing)
            throws Exception {
        Throwable[] found = new Throwable[1];
        eventually(SYNC_TIMEOUT, () -> {
            synchronized (failures) {
                for (Object[] failure : failures) {
                    if (failure[0].equals(path) && failure[1] == kind && type.isInstance(failure[2])
                            && ((Throwable) failure[2]).getMessage().contains(containing)) {
                        found[0] = (Throwable) failure[2];
                        return;
                    }
                }
            }
            throw new AssertionError("no " + kind + " failure of " + path + " yet; seen " + failuresOf(path));
        });
        return found[0];
    }

    private List<String> failuresOf(TablePath path) {
        List<String> seen = new ArrayList<>();
        synchronized (failures) {
            failures.stream().filter(f -> f[0].equals(path)).forEach(f -> seen.add(f[1] + ": " + f[2]));
        }
        return seen;
    }
}
