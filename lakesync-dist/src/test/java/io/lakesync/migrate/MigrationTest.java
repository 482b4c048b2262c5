package io.lakesync.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a tiering job's parameters are read and compared with what lakesync serves. */
class MigrationTest {

    @Test
    void applicationModeProgramArgumentsBecomeParameters() {
        assertThat(FlinkRestClient.programArguments(
                "--fluss.bootstrap.servers;fluss-0:9123,fluss-1:9123;--datalake.format;paimon;--verbose;"
                        + "--datalake.paimon.warehouse;s3://lake/wh"))
                .isEqualTo(Map.of(
                        "fluss.bootstrap.servers", "fluss-0:9123,fluss-1:9123",
                        "datalake.format", "paimon",
                        "datalake.paimon.warehouse", "s3://lake/wh"));
    }

    @Test
    void bootstrapListsNameTheSameClusterWhenTheyShareAnAddress() {
        assertThat(Migration.sameAddresses("fluss-0:9123, FLUSS-1:9123", "fluss-1:9123")).isTrue();
        assertThat(Migration.sameAddresses("fluss-0:9123", "fluss-0:9124")).isFalse();
    }

    @Test
    void warehouseLocationsCompareWithoutSchemeAndTrailingSlash() {
        assertThat(Migration.normalizedLocation("file:///data/wh/")).isEqualTo("/data/wh");
        assertThat(Migration.normalizedLocation("file:/data/wh")).isEqualTo("/data/wh");
        assertThat(Migration.normalizedLocation("s3://lake/wh")).isEqualTo("s3://lake/wh");
    }
}
