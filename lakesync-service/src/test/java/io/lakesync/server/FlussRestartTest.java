package io.lakesync.server;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.local.ClusterTest;
import io.lakesync.local.LocalFlussCluster;
import io.lakesync.status.TableState;
import io.lakesync.status.TableStatus;
import io.lakesync.tiering.lake.LakeTables;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16's "done when": a service running against a separately started Fluss cluster tells the truth while the
 * cluster is down, and resumes by itself when the cluster comes back with its tablet server on another port,
 * every row written after the restart reaching the lake exactly once.
 */
@ClusterTest
class FlussRestartTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String OWNER = "owner-token-0123456789";
    private static final TablePath EVENTS = TablePath.of("fluss", "events");
    private static final TablePath USERS = TablePath.of("fluss", "users");
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(90);

    @TempDir Path root;

    @Test
    void statusTurnsUnknownWhileFlussIsDownAndSyncResumesWhenItsTabletServerComesBackElsewhere() throws Exception {
        Path clusterDir = root.resolve("cluster");
        LocalFlussCluster cluster = LocalFlussCluster.start(clusterConfig(clusterDir, 0), Map.of("kv.snapshot.interval", "1s"));
        int oldTabletPort = cluster.tabletServerPort();
        LakeSyncConfig serviceConfig = cluster.serviceConfig(serviceConfig());
        try (LakeSyncServer server = LakeSyncServer.start(serviceConfig);
                LakeTables lake = new LakeTables(cluster.lakeCatalogOptions())) {
            HttpResponse<String> enabled = post(server, "/api/v1/service/enable");
            assertThat(enabled.statusCode()).as(enabled.body()).isEqualTo(200);
            try (Connection client = ConnectionFactory.createConnection(cluster.clientConfiguration())) {
                client.getAdmin().createDatabase("fluss", DatabaseDescriptor.EMPTY, true).get();
                client.getAdmin().createTable(EVENTS, logTable(), false).get();
                client.getAdmin().createTable(USERS, pkTable(), false).get();
                append(client, 0, 100);
                upsert(client, 0, 50, 1);
            }
            awaitUpToDate(server);

            cluster.close();
            eventually(Duration.ofSeconds(20), () -> {
                for (TableStatus status : server.status().tables()) {
                    assertThat(status.state()).isEqualTo(TableState.UNKNOWN);
                    assertThat(status.stale()).isTrue();
                    assertThat(status.reason()).startsWith("Cannot observe the table since ")
                            .contains("127.0.0.1:" + oldTabletPort);
                }
                HttpResponse<String> response = get(server, "/health");
                JsonNode health = JSON.readTree(response.body());
                // Degraded, not down: the outage is shorter than the coordinator's timeout, so the engine's own
                // health (EngineHealth) still holds and the instance must not be restarted by a load balancer.
                assertThat(health.get("status").asText()).isEqualTo("DEGRADED");
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(health.get("reasons").toString()).contains("Cannot reach Fluss since", "2 table(s) UNKNOWN");
            });
            for (int refresh = 0; refresh < 3; refresh++) {
                assertThat(server.status().refresh()).as("no status claims UP_TO_DATE while observations fail")
                        .extracting(TableStatus::state).containsOnly(TableState.UNKNOWN);
            }
            JsonNode tables = JSON.readTree(get(server, "/api/v1/tables").body());
            assertThat(tables).hasSize(2).allSatisfy(table -> {
                assertThat(table.get("state").asText()).isEqualTo("UNKNOWN");
                assertThat(table.get("stale").asBoolean()).isTrue();
            });
            assertThat(get(server, "/metrics").body())
                    .contains("lakesync_table_state{database=\"fluss\",state=\"UNKNOWN\",table=\"events\"} 1")
                    .contains("lakesync_table_observationAge{database=\"fluss\",table=\"users\"}");

            int newTabletPort = freePort();
            assertThat(newTabletPort).isNotEqualTo(oldTabletPort);
            cluster = LocalFlussCluster.start(clusterConfig(clusterDir, newTabletPort), Map.of("kv.snapshot.interval", "1s"));
            assertThat(cluster.tabletServerPort()).isEqualTo(newTabletPort);
            try (Connection client = ConnectionFactory.createConnection(cluster.clientConfiguration())) {
                append(client, 100, 300);
                upsert(client, 0, 50, 2);
            }
            eventually(SYNC_TIMEOUT, () -> {
                assertThat(readLake(lake, EVENTS, false)).as("every log row exactly once")
                        .hasSize(300).doesNotHaveDuplicates();
                assertThat(readLake(lake, USERS, true)).as("every key at its version after the restart")
                        .hasSize(50).allSatisfy(row -> assertThat(row.get(1)).isEqualTo(2L));
            });
            awaitUpToDate(server);
            JsonNode health = JSON.readTree(get(server, "/health").body());
            assertThat(health.get("status").asText()).isEqualTo("UP");
        } finally {
            cluster.close();
        }
    }

    private void awaitUpToDate(LakeSyncServer server) throws Exception {
        eventually(SYNC_TIMEOUT, () -> {
            List<TableStatus> tables = server.status().tables();
            assertThat(tables).extracting(TableStatus::name).containsExactly("fluss.events", "fluss.users");
            assertThat(tables).allSatisfy(status -> {
                assertThat(status.state()).isEqualTo(TableState.UP_TO_DATE);
                assertThat(status.pendingRecords()).isZero();
                assertThat(status.stale()).isFalse();
            });
        });
    }

    private LakeSyncConfig clusterConfig(Path dataDir, int tabletPort) {
        return LakeSyncConfig.fromMap(Map.of(
                "data.dir", dataDir.toString(),
                "local.coordinator.port", "0",
                "local.tablet-server.port", Integer.toString(tabletPort)), "test");
    }

    /** Short intervals, so that staleness shows and sync resumes within seconds. */
    private LakeSyncConfig serviceConfig() {
        return LakeSyncConfig.fromMap(Map.of(
                "data.dir", root.resolve("service").toString(),
                "service.port", "0",
                "auth.tokens", "alice:owner:" + OWNER,
                "status.refresh-interval", "500ms",
                "status.call-timeout", "2s",
                "tiering.poll-interval", "200ms",
                "tiering.idle-read-timeout", "1s",
                "tiering.retry.initial-backoff", "200ms",
                "tiering.retry.max-backoff", "1s"), "test");
    }

    private static TableDescriptor logTable() {
        return TableDescriptor.builder()
                .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
                .distributedBy(2, "id")
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "2s")
                .build();
    }

    private static TableDescriptor pkTable() {
        return TableDescriptor.builder()
                .schema(Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("version", DataTypes.BIGINT())
                        .primaryKey("id")
                        .build())
                .distributedBy(2, "id")
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "2s")
                .build();
    }

    private static void append(Connection client, long from, long to) throws Exception {
        try (Table table = client.getTable(EVENTS)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (long id = from; id < to; id++) {
                writer.append(GenericRow.of(id));
            }
            writer.flush();
        }
    }

    private static void upsert(Connection client, long from, long to, long version) throws Exception {
        try (Table table = client.getTable(USERS)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (long id = from; id < to; id++) {
                writer.upsert(GenericRow.of(id, version));
            }
            writer.flush();
        }
    }

    /** The lake table's rows as (id) or (id, version) lists; primary-key tables merged by key. */
    private static List<List<Object>> readLake(LakeTables lake, TablePath path, boolean withVersion) throws Exception {
        FileStoreTable table = lake.load(path);
        ReadBuilder read = table.newReadBuilder();
        List<List<Object>> rows = new ArrayList<>();
        try (RecordReader<InternalRow> reader = read.newRead().createReader(read.newScan().plan())) {
            reader.forEachRemaining(row -> rows.add(withVersion ? List.of(row.getLong(0), row.getLong(1)) : List.of(row.getLong(0))));
        }
        return rows;
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            return socket.getLocalPort();
        }
    }

    private static HttpResponse<String> get(LakeSyncServer server, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(server.url().resolve(path))
                .header("Authorization", "Bearer " + OWNER).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(LakeSyncServer server, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(server.url().resolve(path))
                .header("Authorization", "Bearer " + OWNER)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }
}
