package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.fluss.FlussClient;
import io.lakesync.tiering.warmup.ClientWarmUp;
import java.time.Clock;
import java.time.Duration;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

/** The service's use of the client warm-up: a failure is not fatal, and a JVM warms up once. */
class ClientWarmUpOncePerJvmTest extends TieringTestBase {

    @Test
    void aFailedWarmUpIsReportedColdThenASuccessfulOneWarmsTheJvmForEveryLaterEngine() throws Exception {
        createTable(TablePath.of("fluss", "warm_once"), idTable(1, "1h"));
        Connection closed = ConnectionFactory.createConnection(cluster.clientConfiguration());
        FlussClient closedClient = FlussClient.over(closed, Duration.ofSeconds(30));
        closed.close();
        ClientWarmUp failing = warmUp(closedClient);

        assertThat(TieringService.warmUpClient(failing)).isFalse();

        assertThat(TieringService.warmUpClient(warmUp(fluss))).isTrue();
        // Warm now: the warm-up does not run again (it would fail here).
        assertThat(TieringService.warmUpClient(failing)).isTrue();
    }

    private static ClientWarmUp warmUp(FlussClient client) {
        return new ClientWarmUp(client, 8, 30, 2, Duration.ofSeconds(30), Clock.systemUTC());
    }
}
