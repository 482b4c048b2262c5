package io.lakesync.switches;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.catalog.CheckResult;
import io.lakesync.catalog.LakeCatalog;
import io.lakesync.catalog.LakeTableConflictException;
import io.lakesync.catalog.Prerequisites;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.state.StateStore;
import io.lakesync.tiering.retained.LakeTableAdoption;
import io.lakesync.tiering.RecreatedTables;
import io.lakesync.tiering.TieringService;
import io.lakesync.tiering.TieringTestBase;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The cluster switch and per-table switches, with the lake-side checks, on the real stack. */
class SwitchesTest extends TieringTestBase {

    private StateStore state;
    private TableSwitches tables;
    private ServiceSwitchControl service;
    private final AtomicInteger engineStarts = new AtomicInteger();
    private final AtomicInteger engineStops = new AtomicInteger();

    @BeforeEach
    void setUp() throws Exception {
        state = StateStore.open(LakeSyncConfig.fromMap(Map.of("data.dir", root.resolve("state-" + System.nanoTime()).toString()), "test"), Clock.systemUTC());
        LakeCatalog lakeCatalog = new LakeCatalog(fluss, lake);
        tables = new TableSwitches(fluss, lakeCatalog, () -> service.isEnabled(), state);
        service = new ServiceSwitchControl(
                state.serviceSwitch(),
                new Prerequisites(fluss, lake, Duration.ofSeconds(10)),
                tables,
                new ServiceSwitchControl.Engine() {
                    @Override
                    public void start() {
                        engineStarts.incrementAndGet();
                    }

                    @Override
                    public void stop() {
                        engineStops.incrementAndGet();
                    }
                });
    }

    @AfterEach
    void tearDown() {
        state.close();
    }

    @Test
    void turningOnRunsEveryPrerequisiteAndCleansUpItsScratchDatabase() throws Exception {
        List<CheckResult> checks = service.enable("owner-alice");
        assertThat(checks).extracting(CheckResult::name).containsExactly(
                "Fluss cluster reachable", "Fluss credentials can list tables", "Lake catalog reachable",
                "Create a database in the lake", "Create a table in the lake", "Write to the lake",
                "Read from the lake", "Clean up the scratch database");
        assertThat(checks).allMatch(CheckResult::passed);
        assertThat(lake.catalog().listDatabases()).noneMatch(db -> db.startsWith("lakesync_probe_"));
        assertThat(service.isEnabled()).isTrue();
        assertThat(engineStarts.get()).isEqualTo(1);
        assertThat(state.auditLog().recent(5)).anySatisfy(e -> assertThat(e.actor()).isEqualTo("owner-alice"));
    }

    @Test
    void readOnlyWarehouseFailsTheCheckThatNeedsToWrite() throws Exception {
        String warehouse = cluster.warehouse().toString();
        exec("chattr", "+i", warehouse);
        try {
            assertThatThrownBy(() -> service.enable("owner-alice"))
                    .isInstanceOf(SwitchRefusedException.class)
                    .hasMessageContaining("Prerequisite check 'Create a database in the lake' failed")
                    .satisfies(e -> assertThat(((SwitchRefusedException) e).checks())
                            .filteredOn(c -> !c.passed())
                            .extracting(CheckResult::name)
                            .containsExactly("Create a database in the lake"));
        } finally {
            exec("chattr", "-i", warehouse);
        }
        assertThat(engineStarts.get()).isZero();
    }

    @Test
    void turningOffIsRefusedWhileATableIsEnabledAndNamesIt() throws Exception {
        TablePath path = TablePath.of("fluss", "keeps_service_on");
        createTable(path, descriptor(true, Map.of()));
        assertThatThrownBy(() -> service.disable("owner-alice"))
                .isInstanceOf(SwitchRefusedException.class)
                .hasMessageContaining("fluss.keeps_service_on");
        assertThat(service.isEnabled()).isTrue();

        for (TablePath enabled : tables.enabledTables()) {
            tables.disable(enabled, "operator-bob");
        }
        service.disable("owner-alice");
        assertThat(service.isEnabled()).isFalse();
        assertThat(engineStops.get()).isEqualTo(1);
        assertThatThrownBy(() -> tables.enable(path, "operator-bob"))
                .isInstanceOf(SwitchRefusedException.class)
                .hasMessageContaining("switched off");
    }

    @Test
    void enablingRefusesUnsupportedDeletionVectorsAndSameNameLakeTablesButEnablesCleanTables() throws Exception {
        // Deletion vectors are tiered, but Fluss 0.9.1 builds such lake tables only with STRING partition keys.
        TablePath withDv = TablePath.of("fluss", "with_deletion_vectors");
        createTable(withDv, TableDescriptor.builder()
                .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).column("day", DataTypes.INT()).build())
                .distributedBy(1, "id")
                .partitionedBy("day")
                .property("table.datalake.enabled", "false")
                .customProperty("paimon.deletion-vectors.enabled", "true")
                .build());
        assertThatThrownBy(() -> tables.enable(withDv, "operator-bob"))
                .isInstanceOf(SwitchRefusedException.class)
                .hasMessageContaining("fluss.with_deletion_vectors")
                .hasMessageContaining("'paimon.deletion-vectors.enabled' = 'true'")
                .hasMessageContaining("partition key 'day' is INT")
                .hasMessageContaining("only with STRING partition keys");
        TablePath dvPrimaryKey = TablePath.of("fluss", "dv_primary_key");
        createTable(dvPrimaryKey, TableDescriptor.builder()
                .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).primaryKey("id").build())
                .distributedBy(1, "id")
                .property("table.datalake.enabled", "false")
                .customProperty("paimon.deletion-vectors.enabled", "true")
                .build());
        tables.enable(dvPrimaryKey, "operator-bob");
        assertThat(admin.getTableInfo(dvPrimaryKey).get().getTableConfig().isDataLakeEnabled()).isTrue();

        TablePath taken = TablePath.of("fluss", "name_taken_in_lake");
        lake.catalog().createDatabase("fluss", true);
        lake.catalog().createTable(
                Identifier.create("fluss", "name_taken_in_lake"),
                org.apache.paimon.schema.Schema.newBuilder().column("id", org.apache.paimon.types.DataTypes.BIGINT()).build(),
                false);
        BatchWriteBuilder builder = lake.catalog().getTable(Identifier.create("fluss", "name_taken_in_lake")).newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
            write.write(org.apache.paimon.data.GenericRow.of(1L));
            commit.commit(write.prepareCommit());
        }
        createTable(taken, descriptor(false, Map.of()));
        assertThatThrownBy(() -> tables.enable(taken, "operator-bob"))
                .isInstanceOf(SwitchRefusedException.class)
                .hasMessageContaining("already has a table fluss.name_taken_in_lake with data");

        TablePath clean = TablePath.of("fluss", "clean_switch");
        createTable(clean, descriptor(false, Map.of()));
        tables.enable(clean, "operator-bob");
        assertThat(admin.getTableInfo(clean).get().getTableConfig().isDataLakeEnabled()).isTrue();
        assertThat(state.auditLog().recent(1).get(0))
                .satisfies(e -> {
                    assertThat(e.actor()).isEqualTo("operator-bob");
                    assertThat(e.target()).isEqualTo("fluss.clean_switch");
                });
        assertThatThrownBy(() -> tables.enable(TablePath.of("fluss", "no_such_table"), "operator-bob"))
                .hasMessageContaining("There is no Fluss table fluss.no_such_table");
    }

    @Test
    void droppedTablesKeepTheirLakeTableUntilExplicitlyDeleted() throws Exception {
        TablePath path = TablePath.of("fluss", "dropped_but_kept");
        createTable(path, descriptor(true, Map.of()));
        append(path, List.of(GenericRow.of(1L), GenericRow.of(2L)));
        try (TieringService engine = startService("retained-instance")) {
            awaitTiered(path);
        }
        LakeCatalog lakeCatalog = new LakeCatalog(fluss, lake);
        assertThatThrownBy(() -> lakeCatalog.deleteRetained(path))
                .isInstanceOf(LakeTableConflictException.class)
                .hasMessageContaining("has lake sync enabled");
        admin.dropTable(path, false).get();
        assertThat(lakeCatalog.retainedTables()).anySatisfy(t -> {
            assertThat(t.name()).isEqualTo("fluss.dropped_but_kept");
            assertThat(t.snapshots()).isPositive();
        });
        assertThat(readLake(path, "id")).hasSize(2);
        lakeCatalog.deleteRetained(path);
        assertThat(lakeCatalog.retainedTables()).noneMatch(t -> t.name().equals("fluss.dropped_but_kept"));
    }

    @Test
    void aRecreatedTableAdoptsTheRetainedLakeTableOrDeletesIt() throws Exception {
        TablePath path = TablePath.of("fluss", "recreated_switch");
        createTable(path, RecreatedTables.logTable(true));
        append(path, List.of(GenericRow.of(1L), GenericRow.of(2L)));
        try (TieringService engine = startService("adopt-switch-instance")) {
            awaitTiered(path);
        }
        RecreatedTables.recreate(path, RecreatedTables.logTable(false), List.of(GenericRow.of(3L)), false);
        assertThatThrownBy(() -> tables.enable(path, "operator-bob"))
                .isInstanceOf(SwitchRefusedException.class)
                .hasMessageContaining("'lakesync tables adopt fluss.recreated_switch'");

        LakeTableAdoption.Adopted adopted = tables.adopt(path, false, "operator-bob");
        assertThat(adopted.retainedRows()).isEqualTo(2L);
        assertThat(state.auditLog().recent(1).get(0)).satisfies(e -> {
            assertThat(e.actor()).isEqualTo("operator-bob");
            assertThat(e.action()).isEqualTo("table.adopt");
            assertThat(e.target()).isEqualTo("fluss.recreated_switch");
        });
        // Adopted, the table has a checkpoint of its own, so lakesync's enable lets it through.
        tables.enable(path, "operator-bob");
        LakeCatalog lakeCatalog = new LakeCatalog(fluss, lake);
        assertThatThrownBy(() -> lakeCatalog.deleteRetained(path))
                .isInstanceOf(LakeTableConflictException.class)
                .hasMessageContaining("has lake sync enabled");
        tables.disable(path, "operator-bob");
        lakeCatalog.deleteRetained(path);
        assertThat(lake.catalog().listTables("fluss")).doesNotContain("recreated_switch");
        assertThatThrownBy(() -> tables.adopt(path, false, "operator-bob"))
                .isInstanceOf(SwitchRefusedException.class)
                .hasMessageContaining("There is no lake table fluss.recreated_switch");
    }

    private static TableDescriptor descriptor(boolean enabled, Map<String, String> custom) {
        TableDescriptor.Builder builder = TableDescriptor.builder()
                .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
                .distributedBy(1, "id")
                .property("table.datalake.enabled", String.valueOf(enabled))
                .property("table.datalake.freshness", "1s");
        custom.forEach(builder::customProperty);
        return builder.build();
    }

    private static void exec(String... command) throws Exception {
        Process process = new ProcessBuilder(command).inheritIO().start();
        assertThat(process.waitFor()).as(String.join(" ", command)).isZero();
    }
}
