package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.lake.LakeTableIncompatibleException;
import io.lakesync.tiering.round.CommitRefusedException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.file.AccessDeniedException;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.Test;

/** Which failures retry, which block the table, which give it up; whatever wraps them. */
class FailureKindTest {

    @Test
    void storageThatRefusesAccessBlocks() {
        assertThat(FailureKind.of(new RuntimeException(new AccessDeniedException("/lake/fluss.db/t/bucket-0"))))
                .isEqualTo(FailureKind.BLOCKED);
        assertThat(FailureKind.of(new UncheckedIOException(new AccessControlException(
                        "Permission denied: user=lakesync, access=WRITE, inode=\"/lake\""))))
                .isEqualTo(FailureKind.BLOCKED);
        assertThat(FailureKind.of(new RuntimeException(new IOException(
                        "Access Denied (Service: Amazon S3; Status Code: 403; Error Code: AccessDenied)"))))
                .isEqualTo(FailureKind.BLOCKED);
        assertThat(FailureKind.of(new RuntimeException(new FileNotFoundException(
                        "/lake/fluss.db/t/bucket-0/data-1.parquet (Permission denied)"))))
                .isEqualTo(FailureKind.BLOCKED);
    }

    @Test
    void lakeTablesLakesyncCannotTierIntoBlock() {
        assertThat(FailureKind.of(new LakeTableIncompatibleException("not a file store table")))
                .isEqualTo(FailureKind.BLOCKED);
    }

    @Test
    void passingFaultsRetryAndLostTablesAreGivenUp() {
        assertThat(FailureKind.of(new IOException("Mkdirs failed to create /lake/t/bucket-0"))).isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureKind.of(new RuntimeException(new SocketTimeoutException("Read timed out"))))
                .isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureKind.of(new IllegalStateException("Permission denied")))
                .as("the operating system's wording counts in I/O errors only").isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureKind.of(new CommitRefusedException("another owner"))).isEqualTo(FailureKind.LOST);
    }
}
