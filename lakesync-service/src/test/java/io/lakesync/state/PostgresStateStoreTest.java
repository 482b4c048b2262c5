package io.lakesync.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.local.ClusterTest;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The state contract on a real PostgreSQL server, the database for several lakesync instances. */
@ClusterTest
class PostgresStateStoreTest extends StateStoreContract {

    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    private String jdbcUrl;

    @Override
    protected StateStore openFresh() throws Exception {
        jdbcUrl = POSTGRES.newDatabase();
        return reopen();
    }

    @Override
    protected StateStore reopen() {
        LakeSyncConfig config = LakeSyncConfig.fromMap(Map.of(
                "state.jdbc-url", jdbcUrl,
                "state.jdbc-user", PostgresServer.SUPERUSER,
                "state.jdbc-password", PostgresServer.PASSWORD), "test");
        return StateStore.open(config, clock);
    }

    @Test
    void opensThePostgresqlDatabaseTheOptionsName() {
        assertThat(store.kind()).isEqualTo(DatabaseKind.POSTGRESQL);
        assertThat(store.jdbcUrl()).isEqualTo(jdbcUrl);
    }

    @Test
    void twoInstancesShareOneState() {
        try (StateStore second = reopen()) {
            second.serviceSwitch().set(true, "alice", "from the second instance");

            assertThat(store.serviceSwitch().get()).map(ServiceSwitch::reason).contains("from the second instance");
        }
    }

    @Test
    void aWrongPasswordNamesTheOptionsButNotThePassword() {
        assertThatThrownBy(() -> StateStore.open(jdbcUrl, PostgresServer.SUPERUSER, "wrong-secret", clock))
                .isInstanceOf(StateStoreException.class)
                .hasMessageContaining("Cannot connect to the state database " + jdbcUrl)
                .hasMessageContaining("'state.jdbc-password'")
                .hasMessageContaining("password authentication failed")
                .hasMessageNotContaining("wrong-secret");
    }

    @Test
    void anUnreachableServerNamesTheUrl() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String unreachable = "jdbc:postgresql://127.0.0.1:" + closedPort + "/lakesync";

        assertThatThrownBy(() -> StateStore.open(unreachable, PostgresServer.SUPERUSER, PostgresServer.PASSWORD, clock))
                .isInstanceOf(StateStoreException.class)
                .hasMessageContaining("Cannot connect to the state database " + unreachable)
                .hasMessageContaining("'state.jdbc-url'");
    }
}
