package io.lakesync.tiering;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.lakesync.fluss.tiering.TableAssignment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.schema.SchemaChange;
import org.junit.jupiter.api.Test;

/**
 * Failures the engine must survive table by table: a lake table changed outside Fluss blocks only that table
 * (with the reason), storage that refuses access blocks the table until it is fixed, and a transient storage
 * fault is retried with growing backoff until it clears, with every row tiered exactly once.
 */
class FailureHandlingTest extends TieringTestBase {

    private final RecordedFailures failures = new RecordedFailures();

    @Test
    void lakeSchemaChangedOutsideFlussBlocksOnlyThatTable() throws Exception {
        TablePath broken = TablePath.of("fluss", "altered_outside");
        TablePath healthy = TablePath.of("fluss", "still_healthy");
        createTable(broken, descriptor(1));
        createTable(healthy, descriptor(1));
        lake.catalog().alterTable(Identifier.create("fluss", "altered_outside"), SchemaChange.renameColumn("v", "value"), false);
        append(broken, rows(0, 100));
        append(healthy, rows(0, 100));

        try (TieringService service = failures.startService("blocked-instance", Map.of())) {
            awaitTiered(healthy);
            eventually(SYNC_TIMEOUT, () -> assertThat(failures.of(broken))
                    .anySatisfy(f -> {
                        assertThat(f.kind()).isEqualTo(FailureKind.BLOCKED);
                        assertThat(f.cause().getMessage()).contains("changed outside Fluss").contains("'value'");
                    }));
            append(healthy, rows(100, 200));
            awaitTiered(healthy);
            assertThat(service.activeTables()).extracting(TableAssignment::tablePath).contains(broken);
        }
        assertThat(readLake(healthy, "id")).hasSize(200);
    }

    @Test
    void transientStorageFaultIsRetriedWithGrowingBackoffLeavingNoFilesThenRecovers() throws Exception {
        TablePath path = TablePath.of("fluss", "flaky_storage");
        createTable(path, descriptor(2));
        append(path, rows(0, 500));
        // A file where bucket 1's directory must go: its data files cannot be written until it is removed,
        // while bucket 0 (read and written by its own group) writes its files fine.
        Path bucketDir = cluster.warehouse().resolve("fluss.db").resolve("flaky_storage").resolve("bucket-1");
        Files.createDirectories(bucketDir.getParent());
        Files.writeString(bucketDir, "in the way");

        try (TieringService service = failures.startService("flaky-instance", Map.of("tiering.bucket-parallelism", "2"))) {
            eventually(SYNC_TIMEOUT, () -> assertThat(failures.of(path)).hasSizeGreaterThanOrEqualTo(2));
            long filesAfterFirstRetry = lakeFileCount(path);
            eventually(SYNC_TIMEOUT, () -> assertThat(failures.of(path)).hasSizeGreaterThanOrEqualTo(4));
            assertThat(lakeFileCount(path)).as("bucket 0's files of failed rounds are deleted").isEqualTo(filesAfterFirstRetry);
            List<RecordedFailures.Failure> seen = failures.of(path);
            assertThat(seen).allSatisfy(f -> assertThat(f.kind()).isEqualTo(FailureKind.TRANSIENT));
            assertThat(seen.get(2).retryIn()).isGreaterThan(seen.get(0).retryIn());
            Files.delete(bucketDir);
            append(path, rows(500, 600));
            awaitTiered(path);
        }
        List<List<Object>> lakeRows = readLake(path, "id");
        assertThat(lakeRows).hasSize(600);
        assertThat(lakeRows.stream().map(r -> r.get(0)).distinct().count()).isEqualTo(600);
    }

    @Test
    void permissionDeniedOnTheWarehouseBlocksTheTableUntilFixed() throws Exception {
        TablePath path = TablePath.of("fluss", "denied_lake");
        createTable(path, descriptor(1));
        append(path, rows(0, 100));
        Path bucketDir = cluster.warehouse().resolve("fluss.db").resolve("denied_lake").resolve("bucket-0");

        try (TieringService service = failures.startService("denied-instance", Map.of())) {
            awaitTiered(path);
            // Tests run as root, which file modes do not stop; the immutable attribute stops root too (EPERM).
            assumeTrue(chattr("+i", bucketDir), "needs chattr and a file system with the immutable attribute");
            try {
                append(path, rows(100, 200));
                eventually(SYNC_TIMEOUT, () -> assertThat(failures.of(path)).anySatisfy(f -> {
                    assertThat(f.kind()).isEqualTo(FailureKind.BLOCKED);
                    assertThat(f.cause()).hasStackTraceContaining("Operation not permitted");
                }));
            } finally {
                chattr("-i", bucketDir);
            }
            awaitTiered(path);
        }
        List<List<Object>> lakeRows = readLake(path, "id");
        assertThat(lakeRows).hasSize(200);
        assertThat(lakeRows.stream().map(r -> r.get(0)).distinct().count()).isEqualTo(200);
    }

    private static boolean chattr(String flag, Path path) throws Exception {
        try {
            Process process = new ProcessBuilder("chattr", flag, path.toString()).redirectErrorStream(true).start();
            return process.waitFor() == 0;
        } catch (java.io.IOException noChattr) {
            return false;
        }
    }

    private static TableDescriptor descriptor(int buckets) {
        Schema schema = Schema.newBuilder().column("id", DataTypes.BIGINT()).column("v", DataTypes.STRING()).build();
        return lakeTable(schema, buckets, "1s").build();
    }

    private static List<InternalRow> rows(long from, long to) {
        List<InternalRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString("v" + id)));
        }
        return rows;
    }
}
