package io.lakesync.errors;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Failures as the one-line texts users read: in table reasons, log lines and the terminal. */
public final class ErrorMessages {

    private ErrorMessages() {}

    /**
     * The messages along the cause chain, without wrappers and repeats, so that both the outer context (often
     * only in an outer message, "Disconnected from node 127.0.0.1:41234 (id: ts-0, ...)") and the root cause
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
            parts.add(oneLine(message));
        }
        return parts.isEmpty() ? rootCause(error).getClass().getSimpleName() : String.join(": ", parts);
    }

    /** The innermost cause's message, else its type's name; on one line. */
    public static String rootMessage(Throwable error) {
        Throwable root = rootCause(error);
        return root.getMessage() == null || root.getMessage().isBlank()
                ? root.getClass().getSimpleName()
                : oneLine(root.getMessage());
    }

    /** The innermost cause of {@code error} ({@code error} itself when it has none). */
    public static Throwable rootCause(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    /** {@code text} on one line: some messages (Fluss's, Paimon's) hold line breaks. */
    public static String oneLine(String text) {
        return text.strip().replaceAll("\\s*\\R\\s*", " ").replaceAll(" {2,}", " ");
    }
}
