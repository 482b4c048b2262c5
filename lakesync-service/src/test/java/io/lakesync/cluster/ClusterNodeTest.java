package io.lakesync.cluster;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.local.ClusterTest;
import io.lakesync.state.PostgresServer;
import io.lakesync.state.StateStore;
import io.lakesync.status.ActivityChange;
import io.lakesync.testing.ManualClock;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.fluss.tiering.TableEpoch;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.fluss.metadata.TablePath;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Membership and leadership on a real PostgreSQL and SQLite state, heartbeats driven by hand. Time passes on the
 * instances' manual clocks and, for what the database stamped, by ageing those stamps ({@link #timePasses}).
 */
@ClusterTest
class ClusterNodeTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static PostgresServer postgres = new PostgresServer();

    @TempDir Path dataDir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T12:00:00Z"));
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }

    @Test
    void instancesAreListedAliveThenDeadAndTheLeadershipFailsOverAfterTheTimeout() throws Exception {
        StateStore store = track(postgres.open(postgres.newDatabase(), clock));
        List<TableAssignment> heldByA = List.of(new TableAssignment(7, TablePath.of("shop", "orders"), 3));
        ClusterNode a = node(store, "a", heldByA);
        ClusterNode b = node(store, "b", List.of());
        AtomicBoolean switchRead = new AtomicBoolean();
        b.everyHeartbeat(() -> switchRead.set(true));

        a.join("host-a", "http://host-a:8080", "1.0", 4);
        b.join("host-b", "http://host-b:8080", "1.0", 2);

        assertThat(a.isLeader()).isTrue();
        assertThat(b.isLeader()).as("the lease is a's").isFalse();
        assertThat(switchRead).as("duties run with every heartbeat").isTrue();
        assertThat(b.instances()).satisfiesExactly(
                first -> {
                    assertThat(first.id()).isEqualTo("a");
                    assertThat(first.state()).isEqualTo(ClusterInstance.State.ALIVE);
                    assertThat(first.leader()).isTrue();
                    assertThat(first.tablesHeld()).containsExactly("shop.orders");
                    assertThat(first.capacity()).isEqualTo(4);
                    assertThat(first.url()).isEqualTo("http://host-a:8080");
                },
                second -> assertThat(second.leader()).isFalse());

        // a stops beating (killed); b's heartbeats go on.
        timePasses(store, TIMEOUT.minusSeconds(1));
        b.tick();
        assertThat(b.isLeader()).as("a's lease has not expired yet").isFalse();
        timePasses(store, Duration.ofSeconds(2));
        assertThat(a.isLeader()).as("a stops counting itself leader once its lease expired").isFalse();
        b.tick();
        assertThat(b.isLeader()).isTrue();
        assertThat(b.instances()).extracting(ClusterInstance::id, ClusterInstance::state, ClusterInstance::leader)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("b", ClusterInstance.State.ALIVE, true),
                        org.assertj.core.groups.Tuple.tuple("a", ClusterInstance.State.DEAD, false));

        Membership membership = new Membership(store, TIMEOUT);
        SharedActivityBoard board = new SharedActivityBoard(store, "a");
        ActivityChange fiveRoundsThenOneRunning = ActivityChange.started();
        for (int round = 0; round < 5; round++) {
            fiveRoundsThenOneRunning = fiveRoundsThenOneRunning
                    .then(ActivityChange.succeeded(2, 20, 0, Duration.ofSeconds(1), clock.instant()))
                    .then(ActivityChange.started());
        }
        board.apply("five-rounds", Map.of("shop.orders", fiveRoundsThenOneRunning));
        assertThat(membership.tablesOfDeadInstances()).containsExactly(Map.entry("a", List.of(new TableEpoch(7, 3))));
        membership.releaseTablesOf("a");
        assertThat(membership.tablesOfDeadInstances()).isEmpty();
        assertThat(board.get("shop.orders")).hasValueSatisfying(activity -> {
            assertThat(activity.syncing()).as("the dead instance's round is over").isFalse();
            assertThat(activity.rounds()).isEqualTo(5);
            assertThat(activity.holder()).isEqualTo("a");
        });
        board.forget(Set.of("shop.orders"), clock.instant().minus(Duration.ofMinutes(1)));
        assertThat(board.get("shop.orders")).as("recorded after the listing that missed it: kept").isPresent();
        store.write(sql -> sql.update("UPDATE table_activity SET updated_at = updated_at - ?",
                Duration.ofMinutes(2).toMillis()));
        board.forget(Set.of("shop.orders"), clock.instant().minus(Duration.ofMinutes(1)));
        assertThat(board.all()).as("recorded before the listing: dropped").isEmpty();

        // a comes back (it was only stalled): it beats, but b keeps the lease.
        a.tick();
        assertThat(a.isLeader()).isFalse();
        assertThat(b.instances()).extracting(ClusterInstance::state).containsOnly(ClusterInstance.State.ALIVE);

        b.close();
        a.tick();
        assertThat(a.isLeader()).as("a clean stop gives the lease up at once").isTrue();
        assertThat(a.instances()).extracting(ClusterInstance::id, ClusterInstance::state).contains(
                org.assertj.core.groups.Tuple.tuple("b", ClusterInstance.State.STOPPED));
    }

    @Test
    void aTableTakenBetweenHeartbeatsIsRecordedAtOnceWithItsEpoch() throws Exception {
        StateStore store = track(postgres.open(postgres.newDatabase(), clock));
        TableAssignment before = new TableAssignment(7, TablePath.of("shop", "orders"), 3);
        TableAssignment handedOutAgain = new TableAssignment(7, TablePath.of("shop", "orders"), 4);
        List<TableAssignment> held = new CopyOnWriteArrayList<>(List.of(before));
        ClusterNode a = track(node(store, "a", held));
        a.join("host-a", "http://host-a:8080", "1.0", 1);
        // Heartbeats an hour apart: only tableTaken can record anything during the test.
        a.start(Duration.ofHours(1));
        Membership membership = new Membership(store, TIMEOUT);

        held.set(0, handedOutAgain);
        a.tableTaken(handedOutAgain);
        eventually(Duration.ofSeconds(30), () -> assertThat(heldEpochs(store, "a")).isEqualTo("7:4"));
        timePasses(store, TIMEOUT.plusSeconds(1));
        assertThat(membership.tablesOfDeadInstances())
                .as("a dies before its next heartbeat: the leader hands back the epoch a holds now")
                .containsExactly(Map.entry("a", List.of(new TableEpoch(7, 4))));

        a.close();
        a.tableTaken(new TableAssignment(8, TablePath.of("shop", "items"), 1));
        assertThat(membership.tablesOfDeadInstances()).as("a clean stop holds nothing; a closed node records nothing")
                .isEmpty();
    }

    @Test
    void instancesWhoseClocksDifferByMinutesStayAliveAndOneOfThemLeads() throws Exception {
        // Each instance with its own state connection and its own clock, five minutes off the truth either way:
        // a skew well over the instance timeout.
        String database = postgres.newDatabase();
        Instant start = Instant.now();
        ManualClock behind = new ManualClock(start.minus(Duration.ofMinutes(5)));
        ManualClock ahead = new ManualClock(start.plus(Duration.ofMinutes(5)));
        StateStore storeA = track(postgres.open(database, behind));
        StateStore storeB = track(postgres.open(database, ahead));
        ClusterNode a = node(storeA, "a", List.of(new TableAssignment(7, TablePath.of("shop", "orders"), 3)), behind);
        ClusterNode b = node(storeB, "b", List.of(), ahead);
        List<String> handedBackByB = new CopyOnWriteArrayList<>();
        b.everyHeartbeatAsLeader(
                () -> handedBackByB.addAll(new Membership(storeB, TIMEOUT).tablesOfDeadInstances().keySet()));

        a.join("host-a", "http://host-a:8080", "1.0", 1);
        b.join("host-b", "http://host-b:8080", "1.0", 1);
        for (int heartbeat = 0; heartbeat < 5; heartbeat++) {
            a.tick();
            b.tick();
            assertThat(List.of(a.isLeader(), b.isLeader()))
                    .as("heartbeat %d: a took the lease first and keeps it; b, whose clock is ahead, must not "
                            + "find it expired", heartbeat)
                    .containsExactly(true, false);
            assertThat(b.instances()).as("b's view").extracting(ClusterInstance::state)
                    .containsOnly(ClusterInstance.State.ALIVE);
            assertThat(a.instances()).as("a's view").extracting(ClusterInstance::state)
                    .containsOnly(ClusterInstance.State.ALIVE);
            behind.advance(Duration.ofSeconds(1));
            ahead.advance(Duration.ofSeconds(1));
        }
        assertThat(new Membership(storeB, TIMEOUT).tablesOfDeadInstances())
                .as("a's tables are not handed back while a beats").isEmpty();

        a.close();
        b.tick();
        assertThat(b.isLeader()).as("the lease still changes hands").isTrue();
        assertThat(handedBackByB).isEmpty();
    }

    @Test
    void onSqliteTheSingleInstanceAlwaysLeadsAndASecondOneIsWarnedAbout() {
        List<String> warnings = new CopyOnWriteArrayList<>();
        Logger logger = (Logger) LogManager.getLogger(ClusterNode.class);
        AbstractAppender capture = new AbstractAppender("capture", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                if (event.getLevel() == Level.WARN) {
                    warnings.add(event.getMessage().getFormattedMessage());
                }
            }
        };
        capture.start();
        logger.addAppender(capture);
        try {
            StateStore store = track(StateStore.open(
                    LakeSyncConfig.fromMap(Map.of("data.dir", dataDir.toString()), "test"), clock));
            ClusterNode only = node(store, "only", List.of());
            only.join("host", "http://host:8080", "1.0", 4);
            assertThat(only.isLeader()).isTrue();
            assertThat(warnings).isEmpty();

            ClusterNode second = node(store, "second", List.of());
            second.join("host-2", "http://host-2:8080", "1.0", 4);
            only.tick();
            only.tick();
            assertThat(only.isLeader()).isTrue();
            assertThat(only.instances()).extracting(ClusterInstance::id).containsExactly("only", "second");
            assertThat(warnings).as("once").singleElement().asString()
                    .contains("Another lakesync instance (second) runs on this SQLite state").contains("state.jdbc-url");
        } finally {
            logger.removeAppender(capture);
            capture.stop();
        }
    }

    private ClusterNode node(StateStore store, String id, Collection<TableAssignment> held) {
        return node(store, id, held, clock);
    }

    private static ClusterNode node(StateStore store, String id, Collection<TableAssignment> held, Clock clock) {
        return new ClusterNode(id, new Membership(store, TIMEOUT),
                new LeaderLease(store, "cluster-duties", TIMEOUT), () -> held, clock);
    }

    /** {@code elapsed} passes: on the instances' clock, and for the heartbeats and leases the database stamped. */
    private void timePasses(StateStore store, Duration elapsed) {
        DatabaseStamps.timePasses(clock, store, elapsed, "cluster_lease.expires_at", "cluster_lease.acquired_at");
    }

    private static String heldEpochs(StateStore store, String id) {
        List<String> epochs = new ArrayList<>();
        store.read(sql -> sql.query("SELECT held_epochs FROM lakesync_instance WHERE id = ?",
                row -> epochs.add(row.getString("held_epochs")), id));
        return String.join(";", epochs);
    }

    private <T extends AutoCloseable> T track(T closeable) {
        opened.add(closeable);
        return closeable;
    }
}
