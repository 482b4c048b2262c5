package io.lakesync.fluss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.ListOffsetsResult;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.exception.NetworkException;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.exception.UnknownServerException;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

/**
 * The client's one deadline policy, against an admin whose calls never answer, fail or block before they return
 * their future: what a hung or failing Fluss server gives a caller. (A real silent server cannot be reached this
 * far: the Fluss client fails to connect to it before any call.)
 */
class FlussClientTest {

    private static final Duration BUDGET = Duration.ofMillis(300);
    private static final TablePath TABLE = TablePath.of("db", "orders");

    @Test
    void aCallWithoutAnswerFailsWithinTheBudgetNamingTheCallAndIsCancelled() throws Exception {
        CompletableFuture<Object> pending = new CompletableFuture<>();
        FlussClient fluss = FlussClient.over(connection(method -> pending), BUDGET);

        CompletableFuture<Boolean> exists = fluss.tableExists(TABLE);

        assertThatThrownBy(() -> exists.get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(TimeoutException.class)
                .hasMessage("whether db.orders exists did not answer within 300 ms");
        assertThat(pending).isCancelled();
    }

    @Test
    void aFailedCallFailsWithTheServersOwnError() {
        FlussClient fluss = FlussClient.over(connection(method ->
                CompletableFuture.failedFuture(new TableNotExistException("Table 'db.orders' does not exist."))), BUDGET);

        assertThatThrownBy(() -> fluss.tableInfo(TABLE).get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(TableNotExistException.class)
                .hasMessage("Table 'db.orders' does not exist.");
    }

    @Test
    void aCallThatFailsBeforeItReturnsItsFutureFailsTheFuture() {
        FlussClient fluss = FlussClient.over(connection(method -> {
            throw new NetworkException("Cannot reach the Fluss cluster at 127.0.0.1:9123.");
        }), BUDGET);

        CompletableFuture<Boolean> exists = fluss.tableExists(TABLE);

        assertThatThrownBy(() -> exists.get(30, TimeUnit.SECONDS))
                .cause()
                .isInstanceOf(NetworkException.class)
                .hasMessage("Cannot reach the Fluss cluster at 127.0.0.1:9123.");
    }

    @Test
    void answersPassThroughAndAllTablesListsEveryDatabase() throws Exception {
        FlussClient fluss = FlussClient.over(connection(method -> switch (method) {
            case "listDatabases" -> CompletableFuture.completedFuture(List.of("a", "b"));
            case "listTables" -> CompletableFuture.completedFuture(List.of("t1", "t2"));
            default -> new CompletableFuture<>();
        }), BUDGET);

        assertThat(fluss.allTables().get(30, TimeUnit.SECONDS)).containsExactly(
                TablePath.of("a", "t1"), TablePath.of("a", "t2"), TablePath.of("b", "t1"), TablePath.of("b", "t2"));
    }

    @Test
    void aCallThatBlocksBeforeItReturnsItsFutureDoesNotHoldTheCaller() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        FlussClient fluss = FlussClient.over(connection(method -> {
            try {
                // Admin#listOffsets refreshes metadata synchronously first: a silent server holds it there.
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new ListOffsetsResult(Map.of(0, new CompletableFuture<>(), 1, new CompletableFuture<>()));
        }), BUDGET);
        try {
            CompletableFuture<Map<Integer, Long>> offsets = fluss.latestOffsets(TABLE, null, List.of(0, 1));

            assertThat(offsets).isNotDone();
            assertThatThrownBy(() -> offsets.get(30, TimeUnit.SECONDS))
                    .cause()
                    .isInstanceOf(TimeoutException.class)
                    .hasMessage("the latest offsets of db.orders did not answer within 300 ms");
        } finally {
            release.countDown();
        }
    }

    @Test
    void aLakeSnapshotWhoseOffsetsFileWasDiscardedUnderTheReadIsAskedForAgain() throws Exception {
        LakeSnapshot newer = new LakeSnapshot(7, Map.of());
        AtomicInteger asked = new AtomicInteger();
        FlussClient fluss = FlussClient.over(connection(method -> asked.incrementAndGet() == 1
                ? CompletableFuture.failedFuture(discardedOffsetsFile())
                : CompletableFuture.completedFuture(newer)), BUDGET);

        assertThat(fluss.latestLakeSnapshot(TABLE).get(30, TimeUnit.SECONDS)).isSameAs(newer);
        assertThat(asked).hasValue(2);
    }

    @Test
    void anOffsetsFileGoneForGoodFailsAfterTheLastAttemptAndOtherFailuresAtOnce() {
        AtomicInteger asked = new AtomicInteger();
        FlussClient gone = FlussClient.over(connection(method -> {
            asked.incrementAndGet();
            return CompletableFuture.failedFuture(discardedOffsetsFile());
        }), BUDGET);

        assertThatThrownBy(() -> gone.readableLakeSnapshot(TABLE).get(30, TimeUnit.SECONDS))
                .cause()
                .isInstanceOf(UnknownServerException.class)
                .hasMessageContaining("Failed to get lake table snapshot");
        assertThat(asked).hasValue(FlussClient.LAKE_SNAPSHOT_ATTEMPTS);

        asked.set(0);
        FlussClient failing = FlussClient.over(connection(method -> {
            asked.incrementAndGet();
            return CompletableFuture.failedFuture(new UnknownServerException("Failed to get lake table snapshot for "
                    + "table: db.orders\njava.io.IOException: Connection reset"));
        }), BUDGET);

        assertThatThrownBy(() -> failing.latestLakeSnapshot(TABLE).get(30, TimeUnit.SECONDS))
                .cause()
                .hasMessageContaining("Connection reset");
        assertThat(asked).hasValue(1);
    }

    /** What Fluss 0.9.1 answers when a registration deleted the offsets file of the entry the read found. */
    private static UnknownServerException discardedOffsetsFile() {
        return new UnknownServerException("org.apache.fluss.exception.FlussRuntimeException: Failed to get lake table "
                + "snapshot for table: db.orders, table id: 0\nCaused by: java.io.FileNotFoundException: "
                + "/remote/lake/db/orders-0/metadata/e1a7d1bc.offsets (No such file or directory)");
    }

    /** A connection whose admin answers every call with {@code answer} of the call's method name. */
    private static Connection connection(Function<String, Object> answer) {
        Admin admin = (Admin) Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[] {Admin.class},
                (proxy, method, args) -> answer.apply(method.getName()));
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> method.getName().equals("getAdmin") ? admin : null);
    }
}
