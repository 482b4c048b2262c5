package io.lakesync.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.local.ClusterTest;
import io.lakesync.state.PostgresServer;
import io.lakesync.tiering.lake.LakeTables;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Paimon JDBC catalog whose database restarts: Paimon 1.3.1 keeps its closed connections, so without lakesync
 * opening the catalog again every later call would fail for good.
 */
@ClusterTest
class LakeCatalogReconnectTest {

    @RegisterExtension static PostgresServer postgres = PostgresServer.ownServer();

    @TempDir Path warehouse;

    @Test
    void theCallAfterTheCatalogsDatabaseRestartedGoesThroughNewConnections() throws Exception {
        Map<String, String> options = Map.of(
                "metastore", "jdbc",
                "uri", postgres.newDatabase(),
                "jdbc.user", PostgresServer.SUPERUSER,
                "jdbc.password", PostgresServer.PASSWORD,
                "warehouse", warehouse.toString());
        try (LakeTables lake = new LakeTables(options)) {
            lake.catalog().createDatabase("sales", false);
            assertThat(lake.catalog().listDatabases()).contains("sales");

            postgres.restart(); // the test server runs without fsync: what it held may not survive, its connections don't

            assertThatThrownBy(() -> lake.catalog().listDatabases())
                    .as("the call that finds the connection gone")
                    .hasStackTraceContaining("PSQLException");
            lake.catalog().createDatabase("logs", true);
            assertThat(lake.catalog().listDatabases()).contains("logs");
        }
    }
}
