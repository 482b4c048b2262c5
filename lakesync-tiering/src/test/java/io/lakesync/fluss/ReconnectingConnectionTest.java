package io.lakesync.fluss;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.errors.ErrorMessages;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.exception.NetworkException;
import org.junit.jupiter.api.Test;

/**
 * Deadlines against a server that accepts connections and never answers. Reconnecting to servers that moved is
 * covered against a real restarted cluster by the service's {@code FlussRestartTest}.
 */
class ReconnectingConnectionTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    /** Thread scheduling on a shared 2-core machine. */
    private static final Duration SLACK = Duration.ofSeconds(2);

    @Test
    void openingAgainstASilentBootstrapServerReturnsWithinTheTimeoutAndCallsFailNamingWhy() throws Exception {
        try (SilentServer silent = new SilentServer(0)) {
            Configuration conf = new Configuration();
            conf.setString(ConfigOptions.BOOTSTRAP_SERVERS.key(), "127.0.0.1:" + silent.port());
            long started = System.nanoTime();
            try (ReconnectingConnection connection = ReconnectingConnection.open(conf, Duration.ofMinutes(1), TIMEOUT)) {
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(TIMEOUT.plus(SLACK));
                // The dial runs on the client's event loop, which a loaded machine may not have scheduled yet.
                eventually(Duration.ofSeconds(30), () -> assertThat(silent.connections()).as("it did dial the server").isPositive());
                assertThat(connection.unreachableReason())
                        .isEqualTo("the bootstrap servers 127.0.0.1:" + silent.port() + " did not answer within 1000 ms");
                assertThatThrownBy(() -> connection.getAdmin().listDatabases())
                        .isInstanceOf(NetworkException.class)
                        .hasMessage("Not connected to the Fluss cluster at 127.0.0.1:" + silent.port()
                                + ": the bootstrap servers 127.0.0.1:" + silent.port() + " did not answer within 1000 ms");
                assertThatThrownBy(() -> connection.coordinatorGateway().lakeTieringHeartbeat(null))
                        .isInstanceOf(NetworkException.class);
            }
        }
    }

    @Test
    void aDeadlineEndsWaitsForFuturesAndBlockingCallsThatNeverAnswer() {
        long started = System.nanoTime();
        assertThatThrownBy(() -> Deadline.in(Duration.ofMillis(300)).await(new CompletableFuture<>(), "Fluss (list databases)"))
                .isInstanceOf(TimeoutException.class)
                .hasMessage("Fluss (list databases) did not answer within 300 ms");
        assertThatThrownBy(() -> Deadline.in(Duration.ofMillis(300)).call(() -> {
                    Thread.sleep(Long.MAX_VALUE);
                    return null;
                }, "The lake catalog"))
                .isInstanceOf(TimeoutException.class)
                .hasMessage("The lake catalog did not answer within 300 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(600).plus(SLACK));
    }

    @Test
    void errorsNameTheServerFromTheOuterMessageAndTheRootCause() {
        Exception failed = new java.util.concurrent.ExecutionException(new NetworkException(
                "Disconnected from node 127.0.0.1:41234 (id: ts-0, rack: null)",
                new java.net.ConnectException("finishConnect(..) failed: Connection refused")));
        assertThat(ErrorMessages.describe(failed)).isEqualTo(
                "Disconnected from node 127.0.0.1:41234 (id: ts-0, rack: null): finishConnect(..) failed: Connection refused");
        assertThat(ErrorMessages.describe(new IllegalStateException())).isEqualTo("IllegalStateException");
        assertThat(ErrorMessages.describe(new IllegalStateException("Failed to initialize. \nReason: refused")))
                .isEqualTo("Failed to initialize. Reason: refused");
    }

    @Test
    void aFailingBlockingCallFailsWithItsOwnError() {
        assertThatThrownBy(() -> Deadline.in(TIMEOUT).call(() -> {
                    throw new IllegalStateException("warehouse unavailable");
                }, "The lake"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("warehouse unavailable");
    }
}
