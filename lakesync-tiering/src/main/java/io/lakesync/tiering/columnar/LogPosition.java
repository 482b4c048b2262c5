package io.lakesync.tiering.columnar;

import javax.annotation.Nullable;
import org.apache.fluss.metadata.TableBucket;

/**
 * How far the columnar reader got in one bucket's log, between {@code fetchOffset} and the exclusive
 * {@code endOffset} of the round.
 *
 * <pre>
 *   READING --(every offset below endOffset consumed)--> DONE
 *      |
 *      +--(remote segment, offset out of range, a batch it cannot decode, a lasting error)--> HANDED_BACK
 * </pre>
 *
 * A bucket handed back continues on the row path ({@code LogScanner}) at {@link #fetchOffset()}: every record
 * before it has been handed to the sink, none after it.
 */
public final class LogPosition {

    /** Where a bucket stands. */
    public enum State {
        READING,
        DONE,
        HANDED_BACK
    }

    private final TableBucket bucket;
    private final long endOffset;
    private long fetchOffset;
    private State state = State.READING;
    private @Nullable String handBackReason;

    /** {@code fetchOffset}: the first offset to read (0 for the start of a log that was never truncated). */
    public LogPosition(TableBucket bucket, long fetchOffset, long endOffset) {
        this.bucket = bucket;
        this.fetchOffset = fetchOffset;
        this.endOffset = endOffset;
        if (fetchOffset >= endOffset) {
            state = State.DONE;
        }
    }

    public TableBucket bucket() {
        return bucket;
    }

    /** The next offset not yet handed to the sink. */
    public long fetchOffset() {
        return fetchOffset;
    }

    public long endOffset() {
        return endOffset;
    }

    public State state() {
        return state;
    }

    public boolean reading() {
        return state == State.READING;
    }

    /** Why the bucket went back to the row path, or null. */
    public @Nullable String handBackReason() {
        return handBackReason;
    }

    void advanceTo(long offset) {
        fetchOffset = Math.max(fetchOffset, offset);
        if (fetchOffset >= endOffset) {
            state = State.DONE;
        }
    }

    void handBack(String reason) {
        if (state == State.READING) {
            state = State.HANDED_BACK;
            handBackReason = reason;
        }
    }
}
