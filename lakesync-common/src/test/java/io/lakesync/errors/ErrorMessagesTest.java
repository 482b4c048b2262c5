package io.lakesync.errors;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class ErrorMessagesTest {

    @Test
    void describeNamesTheContextAndTheRootCauseWithoutWrappersOrRepeats() {
        Throwable refused = new ConnectException("Connection refused");
        Throwable failure = new CompletionException(new ExecutionException(new IOException(
                "Disconnected from node 127.0.0.1:41234\n  (id: ts-0)", new IOException("Connection refused", refused))));
        assertThat(ErrorMessages.describe(failure))
                .isEqualTo("Disconnected from node 127.0.0.1:41234 (id: ts-0): Connection refused");
    }

    @Test
    void aFailureWithoutMessagesIsNamedByItsRootType() {
        assertThat(ErrorMessages.describe(new IllegalStateException(new ConnectException())))
                .isEqualTo("ConnectException");
        assertThat(ErrorMessages.rootMessage(new IllegalStateException("outer", new ConnectException())))
                .isEqualTo("ConnectException");
    }

    @Test
    void rootMessageIsTheInnermostMessageOnOneLine() {
        Throwable failure = new IllegalStateException("outer", new IOException("first line\n   second line"));
        assertThat(ErrorMessages.rootMessage(failure)).isEqualTo("first line second line");
        assertThat(ErrorMessages.rootCause(failure)).isInstanceOf(IOException.class);
    }
}
