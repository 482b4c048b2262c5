package io.lakesync.tiering;

import io.lakesync.tiering.coordinator.TableAssignment;
import io.lakesync.tiering.round.RoundResult;
import java.time.Duration;
import javax.annotation.Nullable;

/**
 * Observes the tiering engine table by table, for status, metrics and alerts. Called from engine threads:
 * implementations must be quick and thread-safe, and must not throw.
 */
public interface TieringListener {

    TieringListener NONE = new TieringListener() {};

    /** The coordinator handed this instance a table. */
    default void roundStarted(TableAssignment assignment) {}

    /** A round ended; it may or may not have committed (see {@link RoundResult#committed()}). */
    default void roundFinished(RoundResult result) {}

    /**
     * A round failed; {@code cause} says why and {@code kind} what happens next: retried after
     * {@code retryIn} while the table stays with this instance, or ({@code retryIn} null) given back.
     */
    default void roundFailed(TableAssignment assignment, Throwable cause, FailureKind kind, @Nullable Duration retryIn) {}
}
