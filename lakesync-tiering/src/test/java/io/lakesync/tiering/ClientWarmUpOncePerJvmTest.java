package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.fluss.LatestOffsets;
import io.lakesync.tiering.warmup.ClientWarmUp;
import java.time.Clock;
import java.time.Duration;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

/** The service's use of the client warm-up: a failure is not fatal, and a JVM warms up once. */
class ClientWarmUpOncePerJvmTest extends TieringTestBase {

    @Test
    void aFailedWarmUpIsReportedColdThenASuccessfulOneWarmsTheJvmForEveryLaterEngine() throws Exception {
        createTable(TablePath.of("fluss", "warm_once"), idTable(1, "1h"));
        Connection closed = ConnectionFactory.createConnection(cluster.clientConfiguration());
        Admin closedAdmin = closed.getAdmin();
        closed.close();
        ClientWarmUp failing = warmUp(closed, closedAdmin);

        assertThat(TieringService.warmUpClient(failing)).isFalse();

        assertThat(TieringService.warmUpClient(warmUp(connection, admin))).isTrue();
        // Warm now: the warm-up does not run again (it would fail here).
        assertThat(TieringService.warmUpClient(failing)).isTrue();
    }

    private static ClientWarmUp warmUp(Connection connection, Admin admin) {
        return new ClientWarmUp(admin, LatestOffsets.of(connection), 8, 30, 2, Duration.ofSeconds(30), Clock.systemUTC());
    }
}
