package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.retry.RetryBackoff;
import io.lakesync.tiering.capacity.CapacityQuotas;
import io.lakesync.tiering.capacity.QuotaAdmission;
import io.lakesync.tiering.capacity.RoundUsage;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.tiering.lake.LakeTableIncompatibleException;
import io.lakesync.tiering.round.BucketProgress;
import io.lakesync.tiering.round.FencedRoundException;
import io.lakesync.tiering.round.RoundControl;
import io.lakesync.tiering.round.RoundPhases;
import io.lakesync.tiering.round.RoundResult;
import io.lakesync.tiering.lake.LakeTableKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.exception.FencedTieringEpochException;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's lifecycle logic against a fake coordinator, scripted rounds and a manual clock: retry with
 * bounded doubling backoff, continuous mode, blocked rechecks, bad records turning blocked, take-backs and
 * releases, shutdown, and a loop that survives anything while its health tells the truth. No cluster, no
 * threads, no waiting.
 */
class TieringEngineTest {

    private static final Duration FRESHNESS = Duration.ofSeconds(2);
    private static final Duration RECHECK = Duration.ofMinutes(1);
    private static final Duration POLL = Duration.ofMillis(200);

    private static final TableAssignment T1 = new TableAssignment(1, TablePath.of("fluss", "t1"), 1);
    private static final TableAssignment T2 = new TableAssignment(2, TablePath.of("fluss", "t2"), 1);
    private static final TableAssignment T3 = new TableAssignment(3, TablePath.of("fluss", "t3"), 1);

    /** Stands for a record the lake cannot take; the test's classifier calls it BAD_RECORD. */
    private static final class BadRecordException extends Exception {
        BadRecordException(String message) {
            super(message);
        }
    }

    @FunctionalInterface
    private interface Round {
        RoundResult run(TableAssignment assignment, RoundControl control) throws Exception;
    }

    @TempDir Path dir;

    private final ManualTime time = new ManualTime();
    private final FakeCoordinator coordinator = new FakeCoordinator();
    private final Map<TableAssignment, Deque<Round>> script = new HashMap<>();
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final TieringListener listener = new TieringListener() {
        @Override
        public void roundStarted(TableAssignment assignment) {
            events.add("started " + name(assignment));
        }

        @Override
        public void roundFinished(RoundResult result) {
            events.add("finished " + name(result.assignment()) + " " + result.records());
        }

        @Override
        public void roundFailed(TableAssignment assignment, Throwable cause, FailureKind kind, Duration retryIn) {
            events.add("failed " + name(assignment) + " " + kind + (retryIn == null ? "" : " " + retryIn.toMillis()));
        }

        @Override
        public void roundHeldBack(TableAssignment assignment, String reason) {
            events.add("held back " + name(assignment) + ": " + reason);
        }

        @Override
        public void roundMeasured(RoundUsage usage) {
            measured.add(name(usage.assignment()) + " " + usage.rows());
        }
    };
    private final List<String> measured = Collections.synchronizedList(new ArrayList<>());
    private TieringEngine engine;

    @BeforeEach
    void startEngine() {
        engine = engine(settings(true, Duration.ofMinutes(5)), dir.resolve("in-flight"));
    }

    @Test
    void failingRoundIsRetriedWithDoublingBoundedBackoffAndEveryAttemptIsAnnounced() {
        for (int i = 0; i < 5; i++) {
            script(T1, failing(new IOException("disk busy")));
        }
        script(T1, tiered(0, Duration.ZERO));
        handOut(T1);

        List<Long> waits = new ArrayList<>();
        for (int attempt = 1; attempt <= 5; attempt++) {
            assertThat(engine.activeTables()).containsExactly(T1);
            Duration wait = time.nextTimer().orElseThrow();
            waits.add(wait.toMillis());
            engine.step();
            assertThat(coordinator.lastHeartbeat().inProgress()).as("a waiting table is still renewed").containsExactly(T1.epoch());
            assertThat(coordinator.lastHeartbeat().requestTable()).as("a waiting table holds no worker").isTrue();
            time.advance(wait.minusMillis(1));
            assertThat(time.startedRounds()).isZero();
            assertThat(events).filteredOn(e -> e.startsWith("started")).hasSize(attempt);
            time.advance(Duration.ofMillis(1));
        }
        assertThat(waits).containsExactly(1000L, 2000L, 4000L, 8000L, 8000L);
        assertThat(events).containsExactly(
                "started t1", "failed t1 TRANSIENT 1000",
                "started t1", "failed t1 TRANSIENT 2000",
                "started t1", "failed t1 TRANSIENT 4000",
                "started t1", "failed t1 TRANSIENT 8000",
                "started t1", "failed t1 TRANSIENT 8000",
                "started t1", "finished t1 0");
        engine.step();
        assertThat(coordinator.finished()).containsExactly(T1.epoch());
        assertThat(engine.activeTables()).isEmpty();
    }

    @Test
    void busyTableRunsBackToBackRoundsEveryHalfFreshnessUntilAnotherTableWaits() {
        script(T1, tiered(100, Duration.ofMillis(300)), tiered(100, Duration.ZERO));
        script(T2, tiered(5, Duration.ZERO), tiered(5, Duration.ZERO));
        handOut(T1);
        assertThat(time.nextTimer()).contains(Duration.ofMillis(700));
        engine.step();
        assertThat(coordinator.lastHeartbeat().finished()).isEmpty();

        time.advance(Duration.ofMillis(700));
        assertThat(time.nextTimer()).contains(Duration.ofSeconds(1));

        // The coordinator hands out another table while this one is held: it had one waiting.
        coordinator.waiting.add(T2);
        engine.step();
        time.runRounds();
        time.advance(Duration.ofSeconds(1));
        engine.step();
        assertThat(coordinator.finished()).as("T1 goes back as soon as T2 was handed out; T2, taken, no longer waits")
                .containsExactly(T1.epoch());
        assertThat(events).filteredOn(e -> e.startsWith("started t1")).hasSize(2);
        assertThat(engine.activeTables()).containsExactly(T2);
    }

    @Test
    void aTableHandedOutWhileAllWorkersWereBusyNoLongerCountsAsWaitingOnceTaken() throws Exception {
        script(T1, tiered(100, Duration.ZERO), tiered(100, Duration.ZERO));
        script(T2, tiered(100, Duration.ZERO), tiered(100, Duration.ZERO));
        coordinator.waiting.add(T1);
        engine.step();
        // Handed out while T1 was held: the coordinator had it waiting, and now both workers are busy.
        coordinator.waiting.add(T2);
        engine.step();
        time.runRounds();
        assertThat(coordinator.finished()).as("judged before any heartbeat saw the queue empty").isEmpty();

        engine.step();
        assertThat(coordinator.lastHeartbeat().requestTable()).isTrue();
        time.advance(FRESHNESS.dividedBy(2));
        assertThat(events).filteredOn(e -> e.startsWith("started t1")).hasSize(2);
        assertThat(events).filteredOn(e -> e.startsWith("started t2")).hasSize(2);
        assertThat(coordinator.finished()).as("nothing else waits: both stay for their next rounds").isEmpty();

        engine.shutdown(Duration.ofSeconds(30));
        assertThat(coordinator.lastHeartbeat().failed()).as("tables between rounds go back on shutdown")
                .containsExactlyInAnyOrder(T1.epoch(), T2.epoch());
    }

    @Test
    void aBusyTableIsKeptThroughEmptyRoundsUntilNothingCameForAFreshness() {
        engine = engine(settings(true, Duration.ofMinutes(5)), dir.resolve("in-flight"));
        Duration halfFreshness = FRESHNESS.dividedBy(2);
        script(T1, tiered(100, Duration.ZERO), tiered(0, Duration.ZERO), tiered(100, Duration.ZERO),
                tiered(0, Duration.ZERO), tiered(0, Duration.ZERO));
        handOut(T1);
        time.advance(halfFreshness);
        assertThat(time.nextTimer()).as("an empty round half a freshness after records: kept").contains(halfFreshness);
        time.advance(halfFreshness);
        time.advance(halfFreshness);
        assertThat(coordinator.finished()).isEmpty();
        time.advance(halfFreshness);
        engine.step();
        assertThat(events).filteredOn(e -> e.startsWith("started t1")).hasSize(5);
        assertThat(coordinator.finished()).as("handed back once nothing came for a full freshness")
                .containsExactly(T1.epoch());
        assertThat(time.nextTimer()).isEmpty();
    }

    @Test
    void aTableTakenBeforeItsWriterStartsIsKeptThroughItsFirstEmptyRounds() {
        script(T1, tiered(0, Duration.ZERO), tiered(100, Duration.ZERO), tiered(0, Duration.ZERO));
        handOut(T1);
        engine.step();
        assertThat(coordinator.finished()).as("the first round found nothing: kept all the same").isEmpty();
        assertThat(time.nextTimer()).as("its next round comes half a freshness later").contains(FRESHNESS.dividedBy(2));
        time.advance(FRESHNESS.dividedBy(2));
        assertThat(events).containsExactly("started t1", "finished t1 0", "started t1", "finished t1 100");
        time.advance(FRESHNESS.dividedBy(2));
        engine.step();
        assertThat(coordinator.finished()).as("records came half a freshness ago: still kept").isEmpty();
    }

    @Test
    void continuousModeEndsAfterTheMaxHoldWhenFreshnessIsReachedOrWhenNothingCame() {
        engine = engine(settings(true, Duration.ofSeconds(2)), dir.resolve("in-flight"));
        script(T1, tiered(100, Duration.ZERO), forceFinished(100), tiered(100, Duration.ZERO), tiered(100, Duration.ZERO));
        handOut(T1);
        time.advance(Duration.ofSeconds(1));
        assertThat(events).as("a round that hit its freshness is followed at once by the next")
                .filteredOn(e -> e.startsWith("started")).hasSize(3);
        assertThat(time.nextTimer()).contains(Duration.ofSeconds(1));
        time.advance(Duration.ofSeconds(1));
        engine.step();
        assertThat(events).filteredOn(e -> e.startsWith("started")).hasSize(4);
        assertThat(coordinator.finished()).as("handed back after the max hold").containsExactly(T1.epoch());

        TableAssignment again = new TableAssignment(1, T1.tablePath(), 2);
        script(again, tiered(0, Duration.ZERO), tiered(0, Duration.ZERO), tiered(0, Duration.ZERO));
        handOut(again);
        engine.step();
        assertThat(coordinator.finished()).as("nothing yet, but just taken: kept").containsExactly(T1.epoch());
        time.advance(FRESHNESS.dividedBy(2));
        time.advance(FRESHNESS.dividedBy(2));
        engine.step();
        assertThat(coordinator.finished()).as("nothing new for a freshness since the hand-out: handed back")
                .containsExactly(T1.epoch(), again.epoch());
        assertThat(events).filteredOn(e -> e.startsWith("started")).hasSize(7);

        engine = engine(settings(false, Duration.ofMinutes(5)), dir.resolve("in-flight-2"));
        TableAssignment third = new TableAssignment(1, T1.tablePath(), 3);
        script(third, tiered(100, Duration.ZERO));
        handOut(third);
        engine.step();
        assertThat(coordinator.finished()).as("continuous mode off").endsWith(third.epoch());
    }

    @Test
    void blockedTableIsRecheckedAtItsIntervalWithoutHoldingAWorkerAndRecovers() {
        script(T1, failing(new LakeTableIncompatibleException("Lake table fluss.t1 was changed outside Fluss")),
                failing(new LakeTableIncompatibleException("Lake table fluss.t1 was changed outside Fluss")),
                tiered(10, Duration.ZERO));
        handOut(T1);
        assertThat(events).containsExactly("started t1", "failed t1 BLOCKED 60000");
        engine.step();
        assertThat(coordinator.lastHeartbeat().requestTable()).isTrue();
        time.advance(RECHECK.minusMillis(1));
        assertThat(events).hasSize(2);
        time.advance(Duration.ofMillis(1));
        time.advance(RECHECK);
        assertThat(events).containsExactly(
                "started t1", "failed t1 BLOCKED 60000",
                "started t1", "failed t1 BLOCKED 60000",
                "started t1", "finished t1 10");
    }

    @Test
    void identicalBadRecordFailuresBlockTheTableAfterTheirLimit() {
        script(T1,
                failing(new BadRecordException("bucket 0 at offset 5: cannot read TIMESTAMP(6)")),
                failing(new BadRecordException("bucket 0 at offset 5: cannot read TIMESTAMP(6)")),
                failing(new BadRecordException("bucket 1 at offset 9: cannot read TIMESTAMP(6)")),
                failing(new BadRecordException("bucket 1 at offset 9: cannot read TIMESTAMP(6)")),
                failing(new BadRecordException("bucket 1 at offset 9: cannot read TIMESTAMP(6)")),
                failing(new BadRecordException("bucket 1 at offset 9: cannot read TIMESTAMP(6)")),
                tiered(1, Duration.ZERO));
        handOut(T1);
        for (int i = 0; i < 6; i++) {
            time.advance(time.nextTimer().orElseThrow());
        }
        assertThat(events).filteredOn(e -> e.startsWith("failed")).containsExactly(
                "failed t1 BAD_RECORD 1000",
                "failed t1 BAD_RECORD 2000",
                "failed t1 BAD_RECORD 4000", // a different record: the count starts again
                "failed t1 BAD_RECORD 8000",
                "failed t1 BLOCKED 60000", // the third identical failure in a row
                "failed t1 BLOCKED 60000");
        assertThat(events).last().isEqualTo("finished t1 1");
        assertThat(FailureKind.BAD_RECORD_ATTEMPTS).isEqualTo(3);
    }

    @Test
    void coordinatorTakingBackAWaitingTableReleasesItAtOnce() {
        script(T1, failing(new IOException("disk busy")));
        handOut(T1);
        coordinator.tableErrors.put(T1.tableId(), new FencedTieringEpochException("epoch 1 is fenced"));
        engine.step();
        assertThat(events).last().isEqualTo("failed t1 LOST");
        assertThat(time.nextTimer()).as("its retry is called off").isEmpty();
        assertThat(engine.activeTables()).isEmpty();
        engine.step();
        assertThat(coordinator.failed()).containsExactly(T1.epoch());
    }

    @Test
    void staleAttemptReleasingDoesNotDropTheNewHoldOfTheSameTable() throws Exception {
        TableAssignment renewed = new TableAssignment(T1.tableId(), T1.tablePath(), 2);
        script(T1, (assignment, control) -> {
            control.throwIfCancelled();
            throw new AssertionError("the stale round must see its cancellation");
        });
        script(renewed, failing(new IOException("disk busy")));
        coordinator.waiting.add(T1);
        engine.step();
        // While the first round still runs, the coordinator fences it and hands the table out again.
        coordinator.tableErrors.put(T1.tableId(), new FencedTieringEpochException("epoch 1 is fenced"));
        engine.step();
        coordinator.tableErrors.clear();
        coordinator.waiting.add(renewed);
        engine.step();
        assertThat(engine.activeTables()).containsExactly(renewed);

        time.runRounds();
        assertThat(events).contains("failed t1 LOST", "failed t1 TRANSIENT 1000");
        assertThat(engine.activeTables()).containsExactly(renewed);
        engine.step();
        assertThat(coordinator.failed()).containsExactly(T1.epoch());
        assertThat(coordinator.lastHeartbeat().inProgress()).containsExactly(renewed.epoch());
        assertThat(new InFlightJournal(dir.resolve("in-flight")).recover())
                .extracting(InFlightJournal.Entry::table)
                .containsExactly(renewed.epoch());
    }

    @Test
    void shutdownHandsEveryHeldTableBack() throws Exception {
        script(T1, failing(new IOException("disk busy")));
        script(T2, tiered(100, Duration.ZERO));
        script(T3, (assignment, control) -> {
            control.throwIfCancelled();
            throw new AssertionError("the round must see the shutdown");
        });
        handOut(T1);
        handOut(T2);
        assertThat(engine.activeTables()).containsExactlyInAnyOrder(T1, T2);
        coordinator.waiting.add(T3);
        engine.step();
        // T3 was waiting: T2, between rounds, went back at once; T1 waits for its retry, T3's round is to start.
        assertThat(engine.activeTables()).containsExactlyInAnyOrder(T1, T3);

        engine.shutdown(Duration.ofSeconds(30));
        assertThat(coordinator.lastHeartbeat().failed()).containsExactlyInAnyOrder(T1.epoch(), T3.epoch());
        assertThat(coordinator.finished()).containsExactly(T2.epoch());
        assertThat(events).contains("failed t1 LOST", "failed t3 LOST");
        assertThat(new InFlightJournal(dir.resolve("in-flight")).recover()).isEmpty();
        assertThat(engine.step()).isFalse();
    }

    /**
     * The service stops while a heartbeat that asked for a table is in flight (it lets that heartbeat return rather
     * than interrupt it): the table it brings never starts a round and goes back with the shutdown heartbeat, so the
     * coordinator does not wait its 2-minute timeout for it.
     */
    @Test
    void aTableHandedOutByTheHeartbeatInFlightAtShutdownGoesStraightBack() throws Exception {
        script(T1, (assignment, control) -> {
            throw new AssertionError("no round may start once the engine stopped");
        });
        coordinator.waiting.add(T1);
        coordinator.whileAnswering = engine::stop;

        assertThat(engine.step()).isFalse();
        engine.shutdown(Duration.ofSeconds(30));

        assertThat(engine.activeTables()).isEmpty();
        assertThat(coordinator.lastHeartbeat().failed()).containsExactly(T1.epoch());
        assertThat(events).doesNotContain("started t1");
    }

    @Test
    void loopSurvivesAThrowingHeartbeatAndHealthTurnsDownAfterTheCoordinatorTimeout() {
        assertThat(engine.idleWait()).isEqualTo(POLL);
        coordinator.failure = new IllegalStateException("heartbeat exploded");
        assertThat(engine.step()).isFalse();
        // Failing heartbeats are tried again once a second, not at every poll.
        assertThat(engine.idleWait()).isEqualTo(TieringEngine.FAULT_RETRY).isGreaterThan(POLL);
        time.advance(Duration.ofMinutes(2));
        assertThat(engine.health().healthy()).isTrue();
        time.advance(Duration.ofSeconds(1));
        EngineHealth down = engine.health();
        assertThat(down.healthy()).isFalse();
        assertThat(down.lastHeartbeat()).isNull();
        assertThat(down.reason()).contains("121 s").contains("120 s").contains("heartbeat exploded");

        coordinator.failure = null;
        script(T1, tiered(0, Duration.ZERO), tiered(0, Duration.ZERO), tiered(0, Duration.ZERO));
        handOut(T1);
        EngineHealth up = engine.health();
        assertThat(up.healthy()).isTrue();
        assertThat(engine.idleWait()).isEqualTo(POLL);
        assertThat(up.lastHeartbeat()).isEqualTo(time.instant());

        // A table that finished while heartbeats fail is reported once they pass again.
        coordinator.failure = new IllegalStateException("heartbeat exploded again");
        engine.step();
        time.advance(Duration.ofMinutes(3));
        // T1's outcome waits to be reported (below), but does not make the assigner ask the failing coordinator
        // again without a pause.
        assertThat(engine.reportWaiting()).isFalse();
        assertThat(engine.idleWait()).isEqualTo(TieringEngine.FAULT_RETRY);
        assertThat(engine.health().healthy()).isFalse();
        assertThat(engine.health().lastHeartbeat()).isEqualTo(up.lastHeartbeat());
        coordinator.failure = null;
        engine.step();
        assertThat(coordinator.finished()).containsExactly(T1.epoch());
        assertThat(engine.health().healthy()).isTrue();
    }

    @Test
    void roundThatCannotBeStartedIsHandedBackAndTheLoopGoesOn() {
        time.rejectRounds();
        coordinator.waiting.add(T1);
        engine.step();
        assertThat(events).containsExactly("started t1", "failed t1 LOST");
        assertThat(engine.activeTables()).isEmpty();
        engine.step();
        assertThat(coordinator.failed()).containsExactly(T1.epoch());
    }

    @Test
    void listenerThatThrowsCannotStrandATableOrStopTheLoop() {
        TieringListener broken = new TieringListener() {
            @Override
            public void roundStarted(TableAssignment assignment) {
                throw new IllegalStateException("listener bug");
            }
        };
        engine = new TieringEngine(coordinator, (a, c) -> {
            throw new AssertionError("no round can start");
        }, FailureKind::of, time, new InFlightJournal(dir.resolve("in-flight")), broken, settings(true, Duration.ofMinutes(5)), new QuotaAdmission(CapacityQuotas.unlimited()), time);
        coordinator.waiting.add(T1);
        engine.step();
        assertThat(engine.activeTables()).isEmpty();
        engine.step();
        assertThat(coordinator.failed()).containsExactly(T1.epoch());
    }

    @Test
    void roundBeyondTheDatabaseQuotaWaitsWithTheReasonAndStartsOnceTheCuFrees() {
        QuotaAdmission admission = new QuotaAdmission(new CapacityQuotas(10, Map.of("fluss", 1)));
        engine = engine(settings(false, Duration.ofMinutes(5)), dir.resolve("quota-journal"), admission);
        script(T1, tiered(10, Duration.ZERO));
        script(T2, failing(new IOException("disk busy")), tiered(5, Duration.ZERO));
        coordinator.waiting.add(T1);
        engine.step();
        coordinator.waiting.add(T2);
        engine.step();
        assertThat(engine.activeTables()).containsExactlyInAnyOrder(T1, T2);
        assertThat(events).containsExactly(
                "started t1",
                "held back t2: Held back by the quota of database 'fluss': 1 of 1 CUs in use (quota.database-cu); "
                        + "its tables take turns.");

        time.runRounds();
        time.advance(Duration.ZERO);
        time.runRounds();
        time.advance(Duration.ofSeconds(1));
        time.runRounds();

        assertThat(events).containsSubsequence("finished t1 10", "started t2", "failed t2 TRANSIENT 1000", "started t2", "finished t2 5");
        assertThat(measured).as("every attempt is measured, the failed one too").containsExactly("t1 10", "t2 0", "t2 5");
        assertThat(admission.runningCu()).as("every CU is free again").isZero();
        engine.step();
        assertThat(coordinator.finished()).containsExactlyInAnyOrder(T1.epoch(), T2.epoch());
    }

    @Test
    void tableGivenBackWhileItWaitsForACuLeavesTheLine() throws Exception {
        QuotaAdmission admission = new QuotaAdmission(new CapacityQuotas(1, Map.of()));
        engine = engine(settings(false, Duration.ofMinutes(5)), dir.resolve("quota-journal"), admission);
        script(T1, tiered(10, Duration.ZERO));
        coordinator.waiting.add(T1);
        engine.step();
        coordinator.waiting.add(T2);
        engine.step();
        assertThat(events).last().asString().startsWith("held back t2: Held back by the cluster quota");

        engine.shutdown(Duration.ofSeconds(1));

        assertThat(events).contains("failed t2 LOST").doesNotContain("started t2");
        assertThat(admission.runningCu()).isZero();
    }

    @Test
    void unwritableJournalDoesNotStopSyncing() throws Exception {
        Path inTheWay = Files.writeString(dir.resolve("not-a-folder"), "x");
        engine = engine(settings(true, Duration.ofMinutes(5)), inTheWay.resolve("in-flight"));
        script(T1, tiered(0, Duration.ZERO), tiered(0, Duration.ZERO), tiered(0, Duration.ZERO));
        handOut(T1);
        time.advance(FRESHNESS);
        engine.step();
        assertThat(coordinator.finished()).as("nothing came for a freshness: handed back").containsExactly(T1.epoch());
        assertThat(engine.health().healthy()).isTrue();
    }

    // --- helpers

    private TieringEngine engine(EngineSettings settings, Path journal) {
        return engine(settings, journal, new QuotaAdmission(CapacityQuotas.unlimited()));
    }

    private TieringEngine engine(EngineSettings settings, Path journal, QuotaAdmission admission) {
        return new TieringEngine(
                coordinator,
                (assignment, control) -> {
                    Round round = Optional.ofNullable(script.get(assignment)).map(Deque::poll).orElse(null);
                    if (round == null) {
                        throw new AssertionError("no round scripted for " + assignment);
                    }
                    return round.run(assignment, control);
                },
                failure -> failure instanceof BadRecordException ? FailureKind.BAD_RECORD : FailureKind.of(failure),
                time,
                new InFlightJournal(journal),
                listener,
                settings,
                admission,
                time);
    }

    private static EngineSettings settings(boolean continuous, Duration maxHold) {
        return new EngineSettings(
                2,
                POLL,
                new RetryBackoff(Duration.ofSeconds(1), Duration.ofSeconds(8), () -> 0.5),
                RECHECK,
                continuous,
                maxHold,
                Duration.ofSeconds(10),
                Duration.ofMinutes(2));
    }

    /** Queues the table at the coordinator, lets the engine take it, and runs its first round. */
    private void handOut(TableAssignment assignment) {
        coordinator.waiting.add(assignment);
        engine.step();
        assertThat(engine.activeTables()).contains(assignment);
        time.runRounds();
    }

    private void script(TableAssignment assignment, Round... rounds) {
        script.computeIfAbsent(assignment, a -> new ArrayDeque<>()).addAll(List.of(rounds));
    }

    private Round tiered(long records, Duration took) {
        return (assignment, control) -> {
            control.limitDuration(FRESHNESS);
            return result(assignment, records, took, false);
        };
    }

    private Round forceFinished(long records) {
        return (assignment, control) -> {
            control.limitDuration(FRESHNESS);
            return result(assignment, records, FRESHNESS, true);
        };
    }

    private static Round failing(Exception failure) {
        return (assignment, control) -> {
            control.limitDuration(FRESHNESS);
            throw failure;
        };
    }

    private RoundResult result(TableAssignment assignment, long records, Duration took, boolean forceFinished) {
        return new RoundResult(
                assignment,
                time.instant(),
                took,
                records > 0 ? 1L : null,
                forceFinished,
                List.of(new BucketProgress(null, records > 0 ? records : null, 0, records)),
                0,
                0,
                RoundPhases.none(),
                LakeTableKind.APPEND);
    }

    private static String name(TableAssignment assignment) {
        return assignment.tablePath().getTableName();
    }
}
