package io.lakesync.alert;

import io.lakesync.local.ClusterTest;
import io.lakesync.state.PostgresServer;
import io.lakesync.state.StateStore;
import org.junit.jupiter.api.extension.RegisterExtension;

@ClusterTest
class PostgresAlertingTest extends AlertingContract {

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
        return POSTGRES.open(jdbcUrl, clock);
    }
}
