package io.lakesync.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.rpc.gateway.TabletServerGateway;
import org.apache.fluss.rpc.messages.MetadataRequest;
import org.apache.fluss.rpc.messages.MetadataResponse;
import org.apache.fluss.rpc.netty.server.RequestChannel;
import org.apache.fluss.types.DataTypes;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded stack against real servers: lake table creation, data, restart, and bad start-up input. */
@ClusterTest
class LocalFlussClusterTest {

    private static final TablePath ORDERS = TablePath.of("fluss", "datalake_orders");

    @TempDir Path dataDir;

    private LakeSyncConfig config(Map<String, String> extra) {
        Map<String, String> map = new HashMap<>();
        map.put("data.dir", dataDir.toString());
        map.put("local.coordinator.port", "0");
        map.putAll(extra);
        return LakeSyncConfig.fromMap(map, "test");
    }

    @Test
    void createsPaimonTableAndKeepsTablesRowsAndPortsAcrossRestart() throws Exception {
        List<Integer> ports;
        try (LocalFlussCluster cluster = LocalFlussCluster.start(config(Map.of()), Map.of());
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfiguration())) {
            ports = List.of(cluster.zookeeperPort(), cluster.coordinatorPort(), cluster.tabletServerPort());
            assertThat(ports).allSatisfy(port -> assertThat(port).isPositive());
            Admin admin = connection.getAdmin();
            admin.createDatabase("fluss", DatabaseDescriptor.EMPTY, true).get();
            TableDescriptor descriptor =
                    TableDescriptor.builder()
                            .schema(
                                    Schema.newBuilder()
                                            .column("shop_id", DataTypes.BIGINT())
                                            .column("user_id", DataTypes.BIGINT())
                                            .column("num_orders", DataTypes.INT())
                                            .primaryKey("shop_id", "user_id")
                                            .build())
                            .distributedBy(4)
                            .property("table.datalake.enabled", "true")
                            .property("table.datalake.freshness", "10s")
                            .customProperty("paimon.file.format", "orc")
                            .build();
            admin.createTable(ORDERS, descriptor, false).get();

            FileStoreTable lakeTable = paimonTable(cluster);
            assertThat(lakeTable.rowType().getFieldNames())
                    .containsExactly(
                            "shop_id", "user_id", "num_orders", "__bucket", "__offset", "__timestamp");
            assertThat(lakeTable.options()).containsEntry("file.format", "orc").containsEntry("bucket", "4");
            assertThat(lakeTable.primaryKeys()).containsExactly("shop_id", "user_id");

            try (Table table = connection.getTable(ORDERS)) {
                UpsertWriter writer = table.newUpsert().createWriter();
                for (long i = 0; i < 100; i++) {
                    writer.upsert(GenericRow.of(i, i * 10, (int) i));
                }
                writer.flush();
                assertThat(lookup(table, 42L, 420L).getInt(2)).isEqualTo(42);
            }
        }

        try (LocalFlussCluster cluster = LocalFlussCluster.start(config(Map.of()), Map.of());
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfiguration())) {
            assertThat(List.of(cluster.zookeeperPort(), cluster.coordinatorPort(), cluster.tabletServerPort()))
                    .as("ZooKeeper, coordinator and tablet server ports after a restart on the same data folder")
                    .isEqualTo(ports);
            assertThat(connection.getAdmin().tableExists(ORDERS).get()).isTrue();
            try (Table table = connection.getTable(ORDERS)) {
                List<Integer> found = new ArrayList<>();
                for (long i = 0; i < 100; i += 33) {
                    long key = i;
                    found.add(Eventually.waitFor(Duration.ofSeconds(60), "row " + key, () -> {
                        InternalRow row = lookup(table, key, key * 10);
                        return row == null ? null : row.getInt(2);
                    }));
                }
                assertThat(found).containsExactly(0, 33, 66, 99);
            }
        }
    }

    /**
     * A burst of requests on one connection, as a writer retrying a failed-over leader sends: Fluss 0.9.1 would pause
     * the connection past its backpressure threshold and may never resume it (apache/fluss#4016), so the stack's
     * servers must never pause one.
     */
    @Test
    void aBurstOfRequestsOnOneConnectionIsNeverPaused() throws Exception {
        List<String> pauses = new CopyOnWriteArrayList<>();
        Logger requestChannel = (Logger) LogManager.getLogger(RequestChannel.class);
        AbstractAppender capture = new AbstractAppender("pauses", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                pauses.add(event.getMessage().getFormattedMessage());
            }
        };
        capture.start();
        requestChannel.addAppender(capture);
        try (LocalFlussCluster cluster = LocalFlussCluster.start(config(Map.of()), Map.of());
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfiguration())) {
            TabletServerGateway tabletServer =
                    ((FlussConnection) connection).getMetadataUpdater().newTabletServerClientForNode(0);
            List<CompletableFuture<MetadataResponse>> burst = new ArrayList<>();
            for (int request = 0; request < 2_000; request++) {
                burst.add(tabletServer.metadata(new MetadataRequest()));
            }
            CompletableFuture.allOf(burst.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            assertThat(burst).allSatisfy(answer -> assertThat(answer).isCompleted());
        } finally {
            requestChannel.removeAppender(capture);
            capture.stop();
        }
        assertThat(pauses).as("connections the servers paused").noneMatch(line -> line.contains("paused channel"));
    }

    @Test
    void busyPortFailsFastNamingTheKey() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            int port = taken.getLocalPort();
            assertThatThrownBy(
                            () -> LocalFlussCluster.start(
                                    config(Map.of("local.coordinator.port", String.valueOf(port))), Map.of()))
                    .isInstanceOf(PortInUseException.class)
                    .hasMessageContaining("local.coordinator.port")
                    .hasMessageContaining(String.valueOf(port));
        }
    }

    @Test
    void aLakeCatalogThatCannotWorkFailsBeforeAnythingStartsNamingTheKey() {
        Map<String, String> jdbcWithoutDriver = Map.of(
                "datalake.paimon.metastore", "jdbc",
                "datalake.paimon.uri", "jdbc:mysql://127.0.0.1:3306/paimon");
        assertThatThrownBy(() -> LocalFlussCluster.start(config(jdbcWithoutDriver), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'datalake.paimon.uri'")
                .hasMessageContaining("no JDBC driver");
        assertThat(dataDir.resolve("zookeeper")).as("nothing started").doesNotExist();
    }

    private static InternalRow lookup(Table table, long shopId, long userId) throws Exception {
        Lookuper lookuper = table.newLookup().createLookuper();
        return lookuper.lookup(GenericRow.of(shopId, userId)).get().getSingletonRow();
    }

    private static FileStoreTable paimonTable(LocalFlussCluster cluster) throws Exception {
        Options options = Options.fromMap(cluster.lakeCatalogOptions());
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            return (FileStoreTable) catalog.getTable(Identifier.create("fluss", "datalake_orders"));
        }
    }
}
