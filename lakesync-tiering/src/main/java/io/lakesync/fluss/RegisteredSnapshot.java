package io.lakesync.fluss;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import javax.annotation.Nullable;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.exception.UnknownServerException;
import org.apache.fluss.metadata.TablePath;

/**
 * What the coordinator holds as a table's latest lake snapshot: nothing, a snapshot, or an entry it cannot read
 * (Fluss 0.9.1 answers every read with "Failed to get lake table snapshot" when the offsets file the entry points
 * to is gone, for example one of a dropped table registered by mistake).
 */
public record RegisteredSnapshot(@Nullable LakeSnapshot snapshot, @Nullable String unreadableReason) {

    private static final String UNREADABLE_MESSAGE = "Failed to get lake table snapshot";

    public static RegisteredSnapshot read(FlussClient fluss, TablePath tablePath) throws Exception {
        return of(fluss.latestLakeSnapshot(tablePath));
    }

    /** The answer to a {@code getLatestLakeSnapshot} request issued earlier (so it runs beside other requests). */
    public static RegisteredSnapshot of(CompletableFuture<LakeSnapshot> request) throws Exception {
        try {
            return new RegisteredSnapshot(request.get(), null);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof LakeTableSnapshotNotExistException) {
                return new RegisteredSnapshot(null, null);
            }
            if (isUnreadableAnswer(cause)) {
                return new RegisteredSnapshot(null, firstLine(cause.getMessage()));
            }
            throw cause instanceof Exception ? (Exception) cause : e;
        }
    }

    /**
     * Whether {@code cause} is the coordinator's answer that it could not read the entry's offsets file: an unknown
     * error whose message is the server's stack trace.
     */
    static boolean isUnreadableAnswer(Throwable cause) {
        return cause instanceof UnknownServerException
                && String.valueOf(cause.getMessage()).contains(UNREADABLE_MESSAGE);
    }

    public boolean unreadable() {
        return unreadableReason != null;
    }

    private static String firstLine(String message) {
        int newline = message.indexOf('\n');
        String line = (newline < 0 ? message : message.substring(0, newline)).strip();
        int colon = line.indexOf(": ");
        // Drop the exception class name the server puts first.
        return colon > 0 && line.substring(0, colon).contains("Exception") ? line.substring(colon + 2) : line;
    }
}
