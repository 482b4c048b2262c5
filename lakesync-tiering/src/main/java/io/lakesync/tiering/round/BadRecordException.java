package io.lakesync.tiering.round;

import java.util.List;
import org.apache.fluss.metadata.TablePath;

/**
 * A record of one bucket cannot be read from Fluss or written into the lake (a decode error, a value the lake
 * cannot hold). Retrying reads the same record again, so the message names where it is and what to do; the
 * engine holds the table as blocked once the same failure repeats.
 *
 * <p>The message carries the original failure's type and text; the failure itself is attached as suppressed,
 * not as the cause, so that whoever reports the root cause of a failed round reports this message (a decode
 * error's root cause alone, such as a bare {@code IllegalArgumentException}, says nothing).
 */
public class BadRecordException extends Exception {

    BadRecordException(String message, Throwable failure) {
        super(message);
        addSuppressed(failure);
    }

    /**
     * @param where the bucket and offset, e.g. "bucket 1 at or after offset 42"
     * @param columns the columns the failing value may be in (empty when unknown)
     */
    static BadRecordException of(
            TablePath table, String where, List<String> columns, Throwable cause, String remedy) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String column =
                columns.isEmpty()
                        ? ""
                        : columns.size() == 1 ? " (column '" + columns.get(0) + "')" : " (one of columns " + columns + ")";
        String reason = root.getClass().getSimpleName() + (root.getMessage() != null ? ": " + root.getMessage() : "");
        return new BadRecordException("Table " + table + ", " + where + column + ": " + reason + ". " + remedy, cause);
    }
}
