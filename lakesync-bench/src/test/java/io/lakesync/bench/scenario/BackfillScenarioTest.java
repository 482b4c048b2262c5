package io.lakesync.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.bench.cluster.BenchCluster;
import io.lakesync.bench.scenario.BackfillScenario.Shape;
import io.lakesync.local.ClusterTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@ClusterTest
class BackfillScenarioTest {

    private static final int BUCKETS = 2;

    @TempDir Path dir;

    /**
     * A primary-key table prepared parked (a warm-up wave, or the timed table in warm mode) holds its base and a KV
     * snapshot of it until its release writes the tail: periodic KV snapshots taken while it waits cannot cover a
     * tail that is not there, so its first round reads a changelog, as the scenario says.
     */
    @Test
    void aParkedPrimaryKeyTableGetsItsTailAtItsRelease() throws Exception {
        try (BenchCluster cluster = BenchCluster.start(dir.resolve("cluster"), Duration.ofSeconds(1))) {
            Shape shape = Shape.primaryKey(2_000, BUCKETS, Duration.ofSeconds(2), 7, 0.5, Duration.ofSeconds(1));
            Workload workload = new BackfillScenario(shape, cluster, line -> { }).prepare("parked", true, true);
            TablePath table = workload.tables().get(0);

            Map<Integer, Long> base = cluster.endOffsets(table, BUCKETS).get();
            assertThat(cluster.kvSnapshotOffsets(table, BUCKETS)).as("a KV snapshot covers all written")
                    .isEqualTo(base);
            assertThat(workload.expectedLakeRows()).as("nothing to check before the tail is written").isEmpty();

            workload.release(() -> { });
            Map<Integer, Long> ends = cluster.endOffsets(table, BUCKETS).get();
            assertThat(BackfillScenario.bucketsPast(ends, base)).as("buckets with a tail past the base")
                    .isEqualTo(BUCKETS);
            assertThat(workload.expectedLakeRows()).containsOnlyKeys(table);
            assertThat(workload.expectedLakeRows().get(table)).isPositive();
            assertThat(workload.logicalBytes()).isPositive();
        }
    }
}
