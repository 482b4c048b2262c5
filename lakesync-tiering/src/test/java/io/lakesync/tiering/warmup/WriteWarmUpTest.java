package io.lakesync.tiering.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.local.ClusterTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@ClusterTest
class WriteWarmUpTest {

    @TempDir
    Path dir;

    @Test
    void writesAndCommitsThroughEachWriterChoiceAndLeavesNothingBehind() throws Exception {
        for (WriteWarmUp.Writers writers : new WriteWarmUp.Writers[] {
            new WriteWarmUp.Writers(true, true), new WriteWarmUp.Writers(true, false), new WriteWarmUp.Writers(false, false)
        }) {
            Path warehouse = dir.resolve("warm-up");
            WriteWarmUp.Result result = new WriteWarmUp(warehouse, writers, Clock.systemUTC()).run();

            // Three large rounds into a log and a primary-key table, then two small rounds (a first commit and a
            // second) into each of 24 log and 8 primary-key tables.
            assertThat(result.commits()).as("%s", writers).isEqualTo(2 * 3 + (24 + 8) * 2);
            // Large: three rounds of 2 batches of 8,192 rows per bucket, 2 buckets, for the log table (the
            // primary-key table's batches hold more records: an update is two). Small: 2 rounds of 320 rows, 32
            // tables.
            assertThat(result.rows()).as("%s", writers).isGreaterThan(2L * 3 * 2 * 8192 * 2 + (24 + 8) * 2 * 320);
            assertThat(warehouse).doesNotExist();
        }
    }

    @Test
    void clearsWhatAnEarlierWarmUpLeftBeforeWriting() throws Exception {
        Path warehouse = dir.resolve("warm-up");
        Files.createDirectories(warehouse.resolve("warm_up.db/log"));
        Files.writeString(warehouse.resolve("warm_up.db/log/left-over"), "x");

        new WriteWarmUp(warehouse, new WriteWarmUp.Writers(true, true), Clock.systemUTC()).run();

        assertThat(warehouse).doesNotExist();
    }

    @Test
    void failsWithoutLeavingFilesWhenTheWarehouseCannotBeCreated() throws Exception {
        Path file = Files.writeString(dir.resolve("not-a-folder"), "x");

        assertThatThrownBy(() -> new WriteWarmUp(file.resolve("warm-up"), new WriteWarmUp.Writers(true, true),
                        Clock.systemUTC())
                .run())
                .isInstanceOf(java.io.IOException.class);
        assertThat(Files.readString(file)).isEqualTo("x");
    }
}
