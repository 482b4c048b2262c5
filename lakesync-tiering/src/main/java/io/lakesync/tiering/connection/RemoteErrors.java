package io.lakesync.tiering.connection;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Error messages of failed remote calls, for reasons users read. */
public final class RemoteErrors {

    private RemoteErrors() {}

    /**
     * The messages along the cause chain, without wrappers and repeats, so that both the server (often only in an
     * outer message, "Disconnected from node 127.0.0.1:41234 (id: ts-0, ...)") and the root cause
     * ("Connection refused") are named; on one line.
     */
    public static String describe(Throwable error) {
        List<String> parts = new ArrayList<>();
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            boolean wrapper = t instanceof ExecutionException || t instanceof CompletionException
                    || (t.getCause() != null && t.getCause().toString().equals(message));
            if (wrapper || message == null || message.isBlank()
                    || (!parts.isEmpty() && parts.get(parts.size() - 1).contains(message))) {
                continue;
            }
            parts.add(message.strip().replaceAll("\\s*\\R\\s*", " "));
        }
        return parts.isEmpty() ? error.getClass().getSimpleName() : String.join(": ", parts);
    }
}
