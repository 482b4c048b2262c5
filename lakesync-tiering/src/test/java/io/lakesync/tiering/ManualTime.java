package io.lakesync.tiering;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;

/**
 * A clock and an {@link EngineScheduler} that move only when a test says so: started rounds queue until the
 * test runs them, and timers fire, each at its due time, as the test advances the clock. Single-threaded, so
 * the engine's timing logic is tested in milliseconds without waiting.
 */
final class ManualTime extends Clock implements EngineScheduler {

    private record Timer(Instant due, long order, Runnable task) {}

    private final Deque<Runnable> rounds = new ArrayDeque<>();
    private final List<Timer> timers = new ArrayList<>();
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private long order;
    private boolean rejectRounds;
    private boolean shutDown;

    @Override
    public synchronized void runRound(Runnable attempt) {
        if (rejectRounds || shutDown) {
            throw new RejectedExecutionException("round threads are gone");
        }
        rounds.add(attempt);
    }

    @Override
    public synchronized Cancellable schedule(Runnable task, Duration delay) {
        if (shutDown) {
            throw new RejectedExecutionException("timer is gone");
        }
        Timer timer = new Timer(now.plus(delay), order++, task);
        timers.add(timer);
        return () -> {
            synchronized (this) {
                timers.remove(timer);
            }
        };
    }

    /** Like a thread pool's shutdown: running rounds end (they are run now), pending timers are dropped. */
    @Override
    public void shutdown(Duration grace) {
        synchronized (this) {
            timers.clear();
        }
        runRounds();
        synchronized (this) {
            shutDown = true;
        }
    }

    /** Makes every further round start fail, like a saturated or stopped executor. */
    synchronized void rejectRounds() {
        rejectRounds = true;
    }

    /** Runs the started rounds, and those they start, until none is left. */
    void runRounds() {
        Runnable round;
        while ((round = pollRound()) != null) {
            round.run();
        }
    }

    /** Moves the clock forward, firing every timer due on the way at its due time and running what it starts. */
    void advance(Duration duration) {
        Instant target = now.plus(duration);
        runRounds();
        Optional<Timer> next;
        while ((next = nextDue(target)).isPresent()) {
            synchronized (this) {
                timers.remove(next.get());
                now = next.get().due();
            }
            next.get().task().run();
            runRounds();
        }
        synchronized (this) {
            now = target;
        }
    }

    /** How long until the earliest pending timer, if any. */
    synchronized Optional<Duration> nextTimer() {
        return timers.stream()
                .min(Comparator.comparing(Timer::due).thenComparing(Timer::order))
                .map(t -> Duration.between(now, t.due()));
    }

    synchronized int startedRounds() {
        return rounds.size();
    }

    private synchronized Runnable pollRound() {
        return rounds.poll();
    }

    private synchronized Optional<Timer> nextDue(Instant until) {
        return timers.stream()
                .filter(t -> !t.due().isAfter(until))
                .min(Comparator.comparing(Timer::due).thenComparing(Timer::order));
    }

    @Override
    public synchronized Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("ManualTime stays in UTC");
    }
}
