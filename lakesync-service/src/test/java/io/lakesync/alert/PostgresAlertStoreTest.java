package io.lakesync.alert;

import io.lakesync.local.ClusterTest;
import io.lakesync.state.PostgresServer;
import io.lakesync.state.StateStore;
import org.junit.jupiter.api.extension.RegisterExtension;

@ClusterTest
class PostgresAlertStoreTest extends AlertStoreContract {

    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    @Override
    protected StateStore openFresh() throws Exception {
        return POSTGRES.open(POSTGRES.newDatabase(), clock);
    }
}
