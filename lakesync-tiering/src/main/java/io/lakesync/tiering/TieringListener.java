package io.lakesync.tiering;

import io.lakesync.tiering.capacity.RoundUsage;
import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.tiering.maintenance.MaintenanceReport;
import io.lakesync.tiering.round.RoundResult;
import java.time.Duration;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Observes the tiering engine table by table, for status, metrics and alerts. Called from engine threads:
 * implementations must be quick and thread-safe, and must not throw.
 */
public interface TieringListener {

    TieringListener NONE = new TieringListener() {};

    /** Tells every one of {@code listeners}, in order. */
    static TieringListener all(List<TieringListener> listeners) {
        return new TieringListener() {
            @Override
            public void roundStarted(TableAssignment assignment) {
                listeners.forEach(l -> l.roundStarted(assignment));
            }

            @Override
            public void roundFinished(RoundResult result) {
                listeners.forEach(l -> l.roundFinished(result));
            }

            @Override
            public void roundFailed(TableAssignment assignment, Throwable cause, FailureKind kind, @Nullable Duration retryIn) {
                listeners.forEach(l -> l.roundFailed(assignment, cause, kind, retryIn));
            }

            @Override
            public void roundHeldBack(TableAssignment assignment, String reason) {
                listeners.forEach(l -> l.roundHeldBack(assignment, reason));
            }

            @Override
            public void roundMeasured(RoundUsage usage) {
                listeners.forEach(l -> l.roundMeasured(usage));
            }

            @Override
            public void maintained(MaintenanceReport report) {
                listeners.forEach(l -> l.maintained(report));
            }
        };
    }

    /**
     * A round of the table starts on this instance: the first after the coordinator handed it out, and every
     * further attempt (a retry, a recheck while blocked, the next round in continuous mode). Until the round
     * ends ({@link #roundFinished} or {@link #roundFailed}) the table is being synced.
     */
    default void roundStarted(TableAssignment assignment) {}

    /** A round ended; it may or may not have committed (see {@link RoundResult#committed()}). */
    default void roundFinished(RoundResult result) {}

    /**
     * A round failed; {@code cause} says why and {@code kind} what happens next: retried after
     * {@code retryIn} while the table stays with this instance, or ({@code retryIn} null, kind
     * {@link FailureKind#LOST}) given back. A table given back while it waited for its next round (taken back
     * by the coordinator, shutdown) is reported the same way.
     */
    default void roundFailed(TableAssignment assignment, Throwable cause, FailureKind kind, @Nullable Duration retryIn) {}

    /** A lake maintenance pass of the table ended (see {@link MaintenanceReport#problem()} for a failed one). */
    default void maintained(MaintenanceReport report) {}

    /**
     * A round of the table waits for a compute unit: its database's or the cluster's quota is used up, or this
     * instance's fair share of it while the shared state does not answer ({@code reason} says which). Told on the
     * thread that decided, which may be the admission's own. {@link #roundStarted} follows once it is admitted.
     */
    default void roundHeldBack(TableAssignment assignment, String reason) {}

    /** What a round attempt used (CPU, memory, rows, bytes), told after it ended, failed or not. */
    default void roundMeasured(RoundUsage usage) {}
}
