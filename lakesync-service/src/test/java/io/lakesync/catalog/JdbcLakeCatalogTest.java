package io.lakesync.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeCatalogUnavailableException;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.server.LakeSyncServer;
import io.lakesync.state.PostgresServer;
import io.lakesync.tiering.TieringTestBase;
import io.lakesync.tiering.lake.LakeTables;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lake in a Paimon JDBC catalog on a real PostgreSQL, with Avro data files: the embedded Fluss coordinator
 * creates the lake tables in that catalog, a lakesync service started from a YAML config file as in production
 * tiers a log table and a primary-key table (updates, deletes) into it, what the catalog reads back equals Fluss's
 * state, and a restart resumes exactly once. A JDBC catalog that cannot be opened (no driver, no database, a bad
 * password, no URL) stops the start with the config key to fix.
 */
class JdbcLakeCatalogTest extends TieringTestBase {

    @RegisterExtension static PostgresServer postgres = new PostgresServer();

    private static final String CATALOG_KEY = "lakesync_jdbc_test";
    private static final String OWNER = "owner-token-0123456789";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final TablePath EVENTS = TablePath.of("fluss", "jdbc_events");
    private static final TablePath ORDERS = TablePath.of("fluss", "jdbc_orders");

    private static String catalogDatabase;

    private final Map<Long, String> orders = new TreeMap<>();
    private long events;

    /** Hides the filesystem cluster of {@link TieringTestBase}: this class's Fluss servers use the JDBC catalog. */
    @BeforeAll
    public static void startCluster() throws Exception {
        catalogDatabase = postgres.newDatabase();
        Map<String, String> lake = new HashMap<>();
        jdbcCatalog(catalogDatabase).forEach((k, v) -> lake.put(LakeSyncOptions.LAKE_PREFIX + k, v));
        startCluster(lake);
    }

    @Test
    void tiersLogAndPrimaryKeyTablesIntoTheJdbcCatalogAndResumesExactlyOnce() throws Exception {
        createTable(EVENTS, lakeTable(Schema.newBuilder().column("id", DataTypes.BIGINT()).build(), 2, "500ms")
                .customProperty("paimon.file.format", "avro")
                .build());
        createTable(ORDERS, ordersTable(2, "500ms")
                .customProperty("paimon.file.format", "avro")
                .build());
        assertThat(catalogTablesInPostgres()).contains("fluss.jdbc_events", "fluss.jdbc_orders");

        Path configFile = productionConfigFile();
        try (LakeSyncServer server = LakeSyncServer.start(LakeSyncConfig.load(configFile, Map.of()))) {
            // Enabling proves the lake for real: a scratch database and table created, written, read, dropped.
            HttpResponse<String> enabled = post(server, "/api/v1/service/enable");
            assertThat(enabled.statusCode()).as(enabled.body()).isEqualTo(200);
            appendEvents(1_000);
            put(0, 300, "new");
            delete(0, 50);
            put(100, 150, "paid");
            awaitTiered(EVENTS);
            awaitTiered(ORDERS);
            assertLakeEqualsFluss();
        }
        assertThat(dataFiles(EVENTS)).isNotEmpty().allSatisfy(name -> assertThat(name).endsWith(".avro"));
        assertThat(dataFiles(ORDERS)).isNotEmpty().allSatisfy(name -> assertThat(name).endsWith(".avro"));

        // Written while no lakesync runs: the next start resumes from the coordinator's lake snapshot.
        appendEvents(500);
        put(300, 400, "late");
        delete(100, 120);
        put(60, 70, "changed");
        try (LakeSyncServer server = LakeSyncServer.start(LakeSyncConfig.load(configFile, Map.of()))) {
            awaitTiered(EVENTS);
            awaitTiered(ORDERS);
            assertLakeEqualsFluss();
        }
    }

    @Test
    void aJdbcCatalogThatCannotBeOpenedStopsTheStartNamingTheKey() throws Exception {
        Map<String, String> noDriver = jdbcCatalog("jdbc:mysql://127.0.0.1:3306/paimon");
        assertThatThrownBy(() -> startServerWithCatalog(noDriver))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'datalake.paimon.uri'")
                .hasMessageContaining("no JDBC driver on lakesync's class path accepts");

        // The other failures through the catalog every start (service, engine, verify) opens first.
        Map<String, String> noDatabase = jdbcCatalog(postgres.jdbcUrl("no_such_catalog"));
        assertThatThrownBy(() -> new LakeTables(noDatabase))
                .isInstanceOf(LakeCatalogUnavailableException.class)
                .hasMessageContaining("'datalake.paimon.uri'")
                .hasMessageContaining("database \"no_such_catalog\" does not exist");

        Map<String, String> badPassword = jdbcCatalog(catalogDatabase);
        badPassword.put("jdbc.password", "not-the-password");
        assertThatThrownBy(() -> new LakeTables(badPassword))
                .isInstanceOf(LakeCatalogUnavailableException.class)
                .hasMessageContaining("password authentication failed")
                .hasMessageContaining("'datalake.paimon.jdbc.password'");

        Map<String, String> noUri = jdbcCatalog(catalogDatabase);
        noUri.remove("uri");
        assertThatThrownBy(() -> new LakeTables(noUri))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Missing config key 'datalake.paimon.uri'");
    }

    private static Map<String, String> jdbcCatalog(String uri) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("metastore", "jdbc");
        options.put("uri", uri);
        options.put("jdbc.user", PostgresServer.SUPERUSER);
        options.put("jdbc.password", PostgresServer.PASSWORD);
        options.put("catalog-key", CATALOG_KEY);
        return options;
    }

    private static void startServerWithCatalog(Map<String, String> catalog) throws Exception {
        Map<String, String> settings = new HashMap<>(serviceSettings("bad-catalog"));
        settings.put(LakeSyncOptions.FLUSS_PREFIX + "bootstrap.servers", cluster.bootstrapServers());
        catalog.forEach((k, v) -> settings.put(LakeSyncOptions.LAKE_PREFIX + k, v));
        LakeSyncServer.start(LakeSyncConfig.fromMap(settings, "test")).close();
    }

    private static Map<String, String> serviceSettings(String instance) {
        return Map.of(
                "data.dir", root.resolve(instance).toString(),
                "service.port", "0",
                "auth.tokens", "alice:owner:" + OWNER,
                "tiering.poll-interval", "200ms",
                "tiering.idle-read-timeout", "1s",
                "tiering.retry.initial-backoff", "200ms");
    }

    /** The service's config as a production YAML file: the Fluss cluster and the lake's JDBC catalog, nested. */
    private static Path productionConfigFile() throws Exception {
        StringBuilder yaml = new StringBuilder();
        yaml.append("fluss:\n  bootstrap.servers: ").append(cluster.bootstrapServers()).append('\n');
        yaml.append("datalake:\n  format: paimon\n  paimon:\n");
        cluster.lakeCatalogOptions().forEach((k, v) -> yaml.append("    ").append(k).append(": '").append(v).append("'\n"));
        new TreeMap<>(serviceSettings("production")).forEach((k, v) -> yaml.append(k).append(": '").append(v).append("'\n"));
        return Files.writeString(root.resolve("lakesync.yaml"), yaml);
    }

    /** {@code db.table} of every table the JDBC catalog lists in PostgreSQL under this test's catalog key. */
    private static List<String> catalogTablesInPostgres() throws Exception {
        List<String> tables = new ArrayList<>();
        try (Connection connection =
                        DriverManager.getConnection(catalogDatabase, PostgresServer.SUPERUSER, PostgresServer.PASSWORD);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT database_name, table_name FROM paimon_tables "
                        + "WHERE catalog_key = '" + CATALOG_KEY + "'")) {
            while (rows.next()) {
                tables.add(rows.getString(1) + "." + rows.getString(2));
            }
        }
        return tables;
    }

    private static List<String> dataFiles(TablePath path) throws Exception {
        FileStoreTable table = lake.load(path);
        assertThat(table.coreOptions().fileFormatString()).isEqualTo("avro");
        List<ManifestEntry> files = table.store().newScan().plan().files();
        return files.stream().map(f -> f.file().fileName()).toList();
    }

    private void appendEvents(int count) throws Exception {
        append(EVENTS, ids(events, events + count));
        events += count;
    }

    private void put(long from, long to, String status) throws Exception {
        upsertStatus(ORDERS, from, to, status, orders);
    }

    private void delete(long from, long to) throws Exception {
        deleteKeys(ORDERS, from, to, orders);
    }

    /** Read back through the JDBC catalog: every event exactly once, and the orders' merged state. */
    private void assertLakeEqualsFluss() throws Exception {
        List<Long> ids = readLake(EVENTS, "id").stream().map(row -> (Long) row.get(0)).toList();
        assertThat(ids).hasSize((int) events).doesNotHaveDuplicates();
        assertThat(readLakeByKey(ORDERS, "order_id", "status")).isEqualTo(orders);
    }

    private static HttpResponse<String> post(LakeSyncServer server, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(server.url().resolve(path))
                        .header("Authorization", "Bearer " + OWNER)
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
