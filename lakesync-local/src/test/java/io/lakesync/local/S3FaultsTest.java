package io.lakesync.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.TransientApiMetadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class S3FaultsTest {

    private final List<Duration> pauses = new ArrayList<>();
    private final S3Faults faults = new S3Faults(pauses::add);
    private BlobStoreContext context;
    private BlobStore store;

    @BeforeEach
    void createStore() {
        context = ContextBuilder.newBuilder(new TransientApiMetadata()).credentials("t", "t").buildView(BlobStoreContext.class);
        store = faults.guard(context.getBlobStore());
        store.createContainerInLocation(null, "lake");
    }

    @AfterEach
    void closeStore() {
        context.close();
    }

    @Test
    void requestsPassUntouchedWhileTheSwitchIsOff() {
        store.putBlob("lake", store.blobBuilder("a").payload("x").build());

        assertThat(store.blobExists("lake", "a")).isTrue();
        assertThat(pauses).isEmpty();
        assertThat(faults.failedRequests()).isZero();
    }

    @Test
    void failingRequestsThrowUntilHealed() {
        faults.fail();

        assertThatThrownBy(() -> store.blobExists("lake", "a")).isInstanceOf(S3Faults.InjectedFault.class);
        assertThat(faults.failedRequests()).isEqualTo(1);

        faults.heal();
        assertThat(store.blobExists("lake", "a")).isFalse();
        assertThat(faults.failedRequests()).isEqualTo(1);
    }

    @Test
    void slowRequestsWaitTheDelayFirstUntilHealed() {
        faults.slow(Duration.ofMillis(300));

        store.blobExists("lake", "a");
        store.blobExists("lake", "b");
        faults.heal();
        store.blobExists("lake", "c");

        assertThat(pauses).containsExactly(Duration.ofMillis(300), Duration.ofMillis(300));
        assertThat(faults.slowedRequests()).isEqualTo(2);
    }

    @Test
    void errorsOfTheStoreItselfComeThroughAsThemselves() {
        assertThatThrownBy(() -> store.putBlob("no-such-bucket", store.blobBuilder("a").payload("x").build()))
                .isNotInstanceOf(S3Faults.InjectedFault.class)
                .isNotInstanceOf(java.lang.reflect.UndeclaredThrowableException.class);
    }
}
