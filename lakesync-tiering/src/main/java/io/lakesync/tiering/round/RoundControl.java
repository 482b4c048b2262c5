package io.lakesync.tiering.round;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The limits of one running round: the deadline at which reading stops and the round commits what it has
 * (the table's freshness after reading started: loading and planning the table do not eat into the budget,
 * which matters for a freshness of a few hundred milliseconds), how long reading may see no record before the
 * rest counts as done, and cancellation by the service (shutdown, or the coordinator fenced the table).
 */
public final class RoundControl {

    private final Clock clock;
    private final Duration idleTimeout;
    private final RoundControl parent;
    private final AtomicReference<String> cancelReason = new AtomicReference<>();
    private volatile Instant deadline = Instant.MAX;
    private volatile Duration maxDuration;

    public RoundControl(Clock clock, Duration idleTimeout) {
        this(clock, idleTimeout, null);
    }

    private RoundControl(Clock clock, Duration idleTimeout, RoundControl parent) {
        this.clock = clock;
        this.idleTimeout = idleTimeout;
        this.parent = parent;
    }

    /**
     * A control for one part of the round (its bucket groups) that stops when this one does, and that can be
     * cancelled on its own without cancelling the round.
     */
    public RoundControl child() {
        return new RoundControl(clock, idleTimeout, this);
    }

    /**
     * Reading may take {@code maxDuration} (the table's freshness, known once the round read its table),
     * counted from {@link #startReading}.
     */
    public void limitDuration(Duration maxDuration) {
        this.maxDuration = maxDuration;
    }

    /** Starts the clock on the limit: reading stops the limit from now (never without a limit). */
    public void startReading() {
        Duration limit = maxDuration;
        deadline = limit == null ? Instant.MAX : clock.instant().plus(limit);
    }

    /** The limit last set with {@link #limitDuration}, or null before the round read its table. */
    public Duration maxDuration() {
        return maxDuration;
    }

    public Clock clock() {
        return clock;
    }

    public boolean pastDeadline() {
        return parent != null ? parent.pastDeadline() : !clock.instant().isBefore(deadline);
    }

    public Duration idleTimeout() {
        return idleTimeout;
    }

    /** Asks the round to stop without committing; the first reason wins. */
    public void cancel(String reason) {
        cancelReason.compareAndSet(null, reason);
    }

    public boolean isCancelled() {
        return cancelReason.get() != null || (parent != null && parent.isCancelled());
    }

    public void throwIfCancelled() throws FencedRoundException {
        if (parent != null) {
            parent.throwIfCancelled();
        }
        String reason = cancelReason.get();
        if (reason != null) {
            throw new FencedRoundException(reason);
        }
    }
}
