package io.lakesync.local;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad values of {@code local.lake} stop the local stack before anything starts, naming the key and the fix. */
class LocalLakeOptionTest {

    @TempDir
    Path dataDir;

    @Test
    void anUnknownLakeIsNamedWithTheValuesItTakes() {
        assertThatThrownBy(() -> LocalFlussCluster.start(config(Map.of("local.lake", "gcs")), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value 'gcs' for config key 'local.lake': use 'disk' (a warehouse folder under "
                        + "data.dir) or 's3' (a local S3 server).");
    }

    @Test
    void anS3LakeWithAWarehouseOfItsOwnNamesBothKeys() {
        assertThatThrownBy(() -> LocalFlussCluster.start(
                        config(Map.of("local.lake", "s3", "datalake.paimon.warehouse", "/tmp/elsewhere")), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'local.lake' = 's3' and 'datalake.paimon.warehouse'")
                .hasMessageContaining("Remove one of them.");
    }

    private LakeSyncConfig config(Map<String, String> keys) {
        Map<String, String> map = new HashMap<>(keys);
        map.put("data.dir", dataDir.toString());
        map.put("local.coordinator.port", "0");
        return LakeSyncConfig.fromMap(map, "test");
    }
}
