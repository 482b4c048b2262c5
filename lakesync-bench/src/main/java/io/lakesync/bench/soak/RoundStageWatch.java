package io.lakesync.bench.soak;

import io.lakesync.bench.contender.ChildJvm;
import io.lakesync.bench.contender.ChildProtocol;
import io.lakesync.tiering.round.RoundStage;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Follows the round stages the service process reports (one {@link ChildProtocol.Type#STAGE} event per stage a
 * round passes), table by table, so that the soak can kill it at a chosen stage and say where each kill landed.
 */
final class RoundStageWatch {

    /** Where a table's round was when the service died, from the last stage it reported. */
    enum Position {
        STARTING("before its first planned round"),
        READING_WRITING("reading Fluss and writing files"),
        COMMITTING_TO_PAIMON("fencing, preparing offsets, committing to Paimon"),
        COMMITTING_TO_FLUSS("Paimon committed, the coordinator not yet"),
        BETWEEN_ROUNDS("between rounds (committed; planning the next)");

        final String description;

        Position(String description) {
            this.description = description;
        }

        static Position after(RoundStage stage) {
            return switch (stage) {
                case PLANNED -> READING_WRITING;
                case DATA_WRITTEN, FENCED -> COMMITTING_TO_PAIMON;
                case LAKE_COMMITTED -> COMMITTING_TO_FLUSS;
                // TABLE_READ is not kept as a table's last stage (see stageOf), the round's position unchanged.
                case TABLE_READ, COORDINATOR_COMMITTED -> BETWEEN_ROUNDS;
            };
        }
    }

    private static final Duration DRAIN_TIMEOUT = Duration.ofMillis(200);

    private final ChildJvm service;
    private final Map<String, RoundStage> lastStage = new HashMap<>();

    RoundStageWatch(ChildJvm service) {
        this.service = service;
    }

    /** Follows the reports for {@code duration}. */
    void follow(Duration duration) throws Exception {
        awaitStage(null, duration);
    }

    /**
     * Follows the reports until a table reaches {@code stage} (any stage when null) or {@code timeout} passes;
     * returns whether it reached it.
     */
    boolean awaitStage(RoundStage stage, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            Optional<RoundStage> reached = next(Duration.ofNanos(left)).flatMap(this::stageOf);
            if (stage != null && reached.isPresent() && reached.get() == stage) {
                return true;
            }
            Optional<String> failure = service.failure();
            if (failure.isPresent()) {
                throw new IllegalStateException("The lakesync service stopped on its own: " + failure.get());
            }
        }
    }

    /** After the process died: reads what it reported before, and says where each table was. */
    Map<String, Position> positionsAtDeath(Iterable<String> tables) throws Exception {
        while (next(DRAIN_TIMEOUT).map(this::stageOf).isPresent()) {
            // every report the dead process wrote is still in the pipe
        }
        Map<String, Position> positions = new HashMap<>();
        for (String table : tables) {
            RoundStage stage = lastStage.get(table);
            positions.put(table, stage == null ? Position.STARTING : Position.after(stage));
        }
        return positions;
    }

    private Optional<ChildProtocol.Event> next(Duration timeout) throws InterruptedException {
        return service.nextEvent(Duration.ofNanos(Math.min(timeout.toNanos(), TimeUnit.MILLISECONDS.toNanos(200))));
    }

    /**
     * The stage a STAGE event reports, remembered as its table's last unless it is {@link RoundStage#TABLE_READ}
     * (a round reading its table info is where the previous stage left it: starting, or between rounds); empty
     * for other events.
     */
    private Optional<RoundStage> stageOf(ChildProtocol.Event event) {
        if (event.type() != ChildProtocol.Type.STAGE) {
            return Optional.empty();
        }
        RoundStage stage = RoundStage.valueOf(String.valueOf(event.payload().get("stage")));
        if (stage != RoundStage.TABLE_READ) {
            lastStage.put(String.valueOf(event.payload().get("table")), stage);
        }
        return Optional.of(stage);
    }
}
