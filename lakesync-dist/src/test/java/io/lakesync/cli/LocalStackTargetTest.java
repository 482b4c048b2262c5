package io.lakesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.local.ClusterTest;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.local.LocalFlussCluster;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CLI command aimed at a local stack (its data folder, no config) uses the stack's own lake, which its running
 * servers know, even when it lives on the stack's S3 server; with the stack down, the folder default.
 */
@ClusterTest
class LocalStackTargetTest {

    @TempDir
    Path dataDir;

    @Test
    void aRunningStackWithItsLakeOnS3IsTargetedThereAndAStoppedOneAtItsFolder() throws Exception {
        LakeSyncConfig stackConfig = LakeSyncConfig.fromMap(Map.of(
                "data.dir", dataDir.toString(), "local.coordinator.port", "0", "local.lake", "s3"), "test");
        try (LocalFlussCluster stack = LocalFlussCluster.start(stackConfig, Map.of())) {
            Map<String, String> lake = new ClusterTarget().load(dataDir).lakeCatalogOptions();
            assertThat(lake).containsEntry("warehouse", "s3://lake/warehouse")
                    .containsEntry("s3.endpoint", stack.lakeCatalogOptions().get("s3.endpoint"));
        }

        Map<String, String> stopped = new ClusterTarget().load(dataDir).lakeCatalogOptions();
        assertThat(stopped).containsEntry("warehouse", dataDir.resolve("warehouse").toString());
    }
}
