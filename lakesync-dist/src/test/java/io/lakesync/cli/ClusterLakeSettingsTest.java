package io.lakesync.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the lake keys given to {@code serve} combine with the Fluss cluster's server config. */
class ClusterLakeSettingsTest {

    private static final String BOOTSTRAP = "fluss:9123";
    private static final Map<String, String> PAIMON_CLUSTER = Map.of(
            "datalake.format", "paimon",
            "datalake.paimon.metastore", "filesystem",
            "datalake.paimon.warehouse", "/cluster/warehouse",
            "remote.data.dir", "/cluster/remote");

    private static LakeSyncConfig given(Map<String, String> keys) {
        return LakeSyncConfig.fromMap(keys, "test");
    }

    @Test
    void theClusterLakeIsUsedWhenNoneIsGiven() {
        LakeSyncConfig config = ClusterLakeSettings.merge(given(Map.of()), PAIMON_CLUSTER, BOOTSTRAP);
        assertThat(config.lakeCatalogOptions())
                .containsExactlyInAnyOrderEntriesOf(Map.of("metastore", "filesystem", "warehouse", "/cluster/warehouse"));
    }

    @Test
    void givenKeysWinAndADifferenceIsNamed() {
        Map<String, String> own = Map.of("datalake.paimon.warehouse", "/own/warehouse");
        LakeSyncConfig config = ClusterLakeSettings.merge(given(own), PAIMON_CLUSTER, BOOTSTRAP);
        assertThat(config.lakeCatalogOptions())
                .containsEntry("warehouse", "/own/warehouse").containsEntry("metastore", "filesystem");
        assertThat(ClusterLakeSettings.mismatches(config.lakeCatalogOptions(), PAIMON_CLUSTER)).containsExactly(
                "Config key 'datalake.paimon.warehouse' is '/own/warehouse' here but '/cluster/warehouse'");
        assertThat(ClusterLakeSettings.mismatches(Map.of("jdbc.password", "a", "s3.access-key", "c"),
                Map.of("datalake.paimon.jdbc.password", "b", "datalake.paimon.s3.access-key", "d")))
                .as("secrets stay out of the log").containsExactlyInAnyOrder(
                        "Config key 'datalake.paimon.jdbc.password' is (hidden) here but (hidden)",
                        "Config key 'datalake.paimon.s3.access-key' is (hidden) here but (hidden)");
    }

    @Test
    void aClusterWithoutALakeNeedsTheWarehouseKey() {
        Map<String, String> noLake = Map.of("remote.data.dir", "/cluster/remote");
        assertThatThrownBy(() -> ClusterLakeSettings.merge(given(Map.of()), noLake, BOOTSTRAP))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Missing config key 'datalake.paimon.warehouse': the Fluss cluster at "
                        + BOOTSTRAP + " has no lake");
        LakeSyncConfig own = given(Map.of("datalake.paimon.warehouse", "/own/warehouse"));
        assertThat(ClusterLakeSettings.merge(own, noLake, BOOTSTRAP).lakeCatalogOptions())
                .containsExactlyEntriesOf(Map.of("warehouse", "/own/warehouse"));
    }

    @Test
    void aClusterTieringIntoAnotherFormatIsRefused() {
        assertThatThrownBy(() -> ClusterLakeSettings.merge(given(Map.of()),
                Map.of("datalake.format", "iceberg", "datalake.iceberg.warehouse", "/w"), BOOTSTRAP))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tiers into 'iceberg' ('datalake.format'")
                .hasMessageContaining("Paimon only");
    }
}
