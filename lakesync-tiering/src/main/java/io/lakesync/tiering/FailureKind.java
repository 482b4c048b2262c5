package io.lakesync.tiering;

import io.lakesync.tiering.lake.LakeTableIncompatibleException;
import io.lakesync.tiering.round.BadRecordException;
import io.lakesync.tiering.round.FencedRoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import org.apache.fluss.exception.AuthorizationException;
import org.apache.fluss.exception.TableNotExistException;

/** How a failed round is handled: retried soon, held as blocked until fixed, or given up. */
public enum FailureKind {
    /** Likely to pass on retry (I/O, network, a busy coordinator): retry with exponential backoff. */
    TRANSIENT,
    /**
     * Needs the user (lake schema changed outside Fluss, permission denied on the warehouse or metastore, a lake
     * table that is not a Paimon file store table, a snapshot of a Fluss version before 0.9, an unsupported
     * option): recheck rarely.
     */
    BLOCKED,
    /**
     * A record that cannot be read or written (a decode error, a value the lake cannot hold): retried with
     * backoff like {@link #TRANSIENT} in case it was a passing fault, and held as {@link #BLOCKED} once the
     * same failure repeated {@link #BAD_RECORD_ATTEMPTS} times in a row.
     */
    BAD_RECORD,
    /** The table is no longer ours (dropped, re-created, epoch fenced): drop it without retrying. */
    LOST;

    /** How many identical {@link #BAD_RECORD} failures in a row block a table. */
    public static final int BAD_RECORD_ATTEMPTS = 3;

    public static FailureKind of(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof FencedRoundException || cause instanceof TableNotExistException) {
                return LOST;
            }
            if (cause instanceof BadRecordException) {
                return BAD_RECORD;
            }
            if (cause instanceof LakeTableIncompatibleException
                    || cause instanceof AuthorizationException
                    || cause instanceof SecurityException
                    || cause instanceof org.apache.paimon.catalog.Catalog.TableNotExistException
                    || isPermissionDenied(cause)) {
                return BLOCKED;
            }
        }
        return TRANSIENT;
    }

    /**
     * Whether storage refused access: the JDK's {@link AccessDeniedException}, Hadoop's (and HDFS's)
     * {@code AccessControlException}, an object store's "Access Denied" (S3 and S3-compatible stores), and the
     * operating system's EACCES/EPERM as the JDK words them in other I/O errors (a local or mounted warehouse).
     */
    static boolean isPermissionDenied(Throwable cause) {
        if (cause instanceof AccessDeniedException || cause.getClass().getSimpleName().equals("AccessControlException")) {
            return true;
        }
        String message = cause.getMessage();
        if (message == null) {
            return false;
        }
        return message.contains("Access Denied")
                || message.contains("AccessDenied")
                || (cause instanceof IOException
                        && (message.contains("Permission denied") || message.contains("Operation not permitted")));
    }
}
