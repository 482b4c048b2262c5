package io.lakesync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading and validating the configuration: every bad input fails naming the key (and the file). */
class LakeSyncConfigTest {

    @TempDir Path tempDir;

    private Path yaml(String text) throws IOException {
        Path file = tempDir.resolve("lakesync.yaml");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void defaultsApplyWhenNothingIsSet() {
        LakeSyncConfig config = LakeSyncConfig.defaults();
        assertThat(config.get(LakeSyncOptions.SERVICE_PORT)).isEqualTo(8080);
        assertThat(config.get(LakeSyncOptions.DATA_DIR)).isEqualTo("./lakesync-data");
        assertThat(config.get(LakeSyncOptions.TIERING_POLL_INTERVAL)).isEqualTo(Duration.ofMillis(200));
        assertThat(config.isSet(LakeSyncOptions.SERVICE_PORT)).isFalse();
        assertThat(config.flussClientOptions()).isEmpty();
        assertThat(config.lakeCatalogOptions()).isEmpty();
    }

    @Test
    void theFlussAddressIsRequiredWithOneLineNamingTheKey() {
        assertThatThrownBy(() -> LakeSyncConfig.fromMap(Map.of("fluss.bootstrap.servers", " "), "test")
                        .flussBootstrapServers())
                .isInstanceOf(ConfigException.class)
                .hasMessage("Missing config key 'fluss.bootstrap.servers': the address of the Fluss cluster to sync "
                        + "from, for example 'fluss.bootstrap.servers: fluss-coordinator:9123'.");
        assertThat(LakeSyncConfig.fromMap(Map.of("fluss.bootstrap.servers", "fluss:9123"), "test")
                .flussBootstrapServers()).isEqualTo("fluss:9123");
    }

    @Test
    void nestedAndDottedKeysMeanTheSame() throws IOException {
        Path file = yaml(String.join("\n",
                "service:",
                "  host: 0.0.0.0",
                "  port: 9090",
                "tiering.workers: 2",
                "tiering:",
                "  poll-interval: 500 ms",
                "fluss:",
                "  bootstrap.servers: coordinator:9123",
                "  client:",
                "    security.protocol: sasl",
                "datalake.paimon:",
                "  metastore: filesystem",
                "  warehouse: /lake",
                ""));
        LakeSyncConfig config = LakeSyncConfig.load(file, Map.of());
        assertThat(config.get(LakeSyncOptions.SERVICE_HOST)).isEqualTo("0.0.0.0");
        assertThat(config.get(LakeSyncOptions.SERVICE_PORT)).isEqualTo(9090);
        assertThat(config.isSet(LakeSyncOptions.SERVICE_PORT)).isTrue();
        assertThat(config.get(LakeSyncOptions.TIERING_WORKERS)).isEqualTo(2);
        assertThat(config.get(LakeSyncOptions.TIERING_POLL_INTERVAL)).isEqualTo(Duration.ofMillis(500));
        assertThat(config.flussClientOptions())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "bootstrap.servers", "coordinator:9123", "client.security.protocol", "sasl"));
        assertThat(config.flussClientConfiguration().toMap()).containsEntry("bootstrap.servers", "coordinator:9123");
        assertThat(config.lakeCatalogOptions())
                .containsExactlyInAnyOrderEntriesOf(Map.of("metastore", "filesystem", "warehouse", "/lake"));
    }

    @Test
    void overridesBeatTheFile() throws IOException {
        Path file = yaml("service:\n  port: 9090\ndata.dir: /from/file\n");
        LakeSyncConfig config = LakeSyncConfig.load(file, Map.of("service.port", "7070"));
        assertThat(config.get(LakeSyncOptions.SERVICE_PORT)).isEqualTo(7070);
        assertThat(config.get(LakeSyncOptions.DATA_DIR)).isEqualTo("/from/file");
    }

    @Test
    void unknownKeyInTheFileIsNamedWithTheFile() throws IOException {
        Path file = yaml("service:\n  prot: 9090\n");
        assertThatThrownBy(() -> LakeSyncConfig.load(file, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Unknown config key 'service.prot'")
                .hasMessageContaining(file.toString())
                .hasMessageContaining("service.port");
    }

    @Test
    void unknownOverrideKeyIsNamed() {
        assertThatThrownBy(() -> LakeSyncConfig.load(null, Map.of("tiering.wrokers", "2")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'tiering.wrokers'")
                .hasMessageContaining("command line");
    }

    @Test
    void malformedValueIsNamedWithItsKey() {
        assertThatThrownBy(() -> LakeSyncConfig.fromMap(Map.of("service.port", "abc"), "test"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'abc'")
                .hasMessageContaining("'service.port'")
                .hasMessageContaining("Default: 8080");
        assertThatThrownBy(() -> LakeSyncConfig.fromMap(Map.of("tiering.poll-interval", "soon"), "test"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'tiering.poll-interval'");
        assertThatThrownBy(() -> LakeSyncConfig.fromMap(Map.of("tiering.columnar-write-primary-key", "maybe"), "test"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'maybe'")
                .hasMessageContaining("'tiering.columnar-write-primary-key'");
        assertThatThrownBy(() -> LakeSyncConfig.fromMap(Map.of("tiering.warm-up", "sometimes"), "test"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'sometimes'")
                .hasMessageContaining("'tiering.warm-up'");
    }

    @Test
    void zeroOrNegativeDurationsAreRefusedNamingTheKey() {
        for (String key : List.of("tiering.poll-interval", "tiering.retry.initial-backoff", "alert.webhook.initial-backoff")) {
            assertThatThrownBy(() -> LakeSyncConfig.fromMap(Map.of(key, "0s"), "test"))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("'0s'")
                    .hasMessageContaining("'" + key + "'")
                    .hasMessageContaining("must be more than 0");
        }
        assertThatThrownBy(() -> LakeSyncConfig.fromMap(Map.of("tiering.poll-interval", "0ms"), "test"))
                .hasMessageEndingWith("Default: 200 ms.");
        assertThatThrownBy(() -> LakeSyncConfig.fromMap(Map.of("status.refresh-interval", "-5s"), "test"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'status.refresh-interval'");
        assertThat(LakeSyncConfig.fromMap(Map.of("tiering.poll-interval", "1ms"), "test")
                .get(LakeSyncOptions.TIERING_POLL_INTERVAL)).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void statusRefreshParallelismBelowOneIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> LakeSyncConfig.fromMap(Map.of("status.refresh-parallelism", "0"), "test"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'status.refresh-parallelism'")
                .hasMessageContaining("at least one table");
        assertThat(LakeSyncConfig.fromMap(Map.of("status.refresh-parallelism", "1"), "test")
                .get(LakeSyncOptions.STATUS_REFRESH_PARALLELISM)).isEqualTo(1);
    }

    @Test
    void aTabletServerCountOutsideOneToNineIsRefusedOnOneLineNamingTheKeyAndTheFix() {
        for (String count : List.of("0", "-1", "10")) {
            assertThatThrownBy(() -> LakeSyncConfig.fromMap(Map.of("local.tablet-servers", count), "test"))
                    .isInstanceOf(ConfigException.class)
                    .hasMessage("Invalid value '" + count + "' for config key 'local.tablet-servers' in test: the "
                            + "local stack runs 1 to 9 tablet servers in its one JVM; use 3 to have leaders fail "
                            + "over. Default: 1.");
        }
        assertThat(LakeSyncConfig.fromMap(Map.of("local.tablet-servers", "3"), "test")
                .get(LakeSyncOptions.LOCAL_TABLET_SERVERS)).isEqualTo(3);
    }

    @Test
    void stateTimeoutsInPartsOfASecondAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> LakeSyncConfig.fromMap(Map.of("state.query-timeout", "1500ms"), "test"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'state.query-timeout'")
                .hasMessageContaining("whole seconds");
        assertThat(LakeSyncConfig.fromMap(Map.of("state.connect-timeout", "2s"), "test")
                .get(LakeSyncOptions.STATE_CONNECT_TIMEOUT)).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void instanceTimeoutUnderTwoHeartbeatsIsRefusedNamingBothKeys() {
        assertThatThrownBy(() -> LakeSyncConfig.fromMap(
                        Map.of("cluster.heartbeat-interval", "5s", "cluster.instance-timeout", "8s"), "test"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'cluster.instance-timeout'")
                .hasMessageContaining("'cluster.heartbeat-interval'")
                .hasMessageContaining("at least twice");
        assertThat(LakeSyncConfig.fromMap(
                        Map.of("cluster.heartbeat-interval", "5s", "cluster.instance-timeout", "10s"), "test")
                .get(LakeSyncOptions.CLUSTER_INSTANCE_TIMEOUT)).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void unknownFlussClientOptionIsRefused() {
        assertThatThrownBy(() -> LakeSyncConfig.fromMap(Map.of("fluss.bootstrap.server", "x:9123"), "test"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'fluss.bootstrap.server'")
                .hasMessageContaining("not a Fluss client option");
    }

    @Test
    void onlyPaimonIsAcceptedAsLakeFormat() {
        assertThatThrownBy(() -> LakeSyncConfig.fromMap(Map.of("datalake.format", "iceberg"), "test"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'datalake.format'")
                .hasMessageContaining("'iceberg'");
    }

    @Test
    void invalidYamlNamesTheFile() throws IOException {
        Path file = yaml("service:\n  port: [9090\n");
        assertThatThrownBy(() -> LakeSyncConfig.load(file, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("not valid YAML");
    }

    @Test
    void missingFileIsNamed() {
        Path file = tempDir.resolve("absent.yaml");
        assertThatThrownBy(() -> LakeSyncConfig.load(file, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("does not exist");
    }

    @Test
    void listsEmptyValuesAndNonMapDocumentsAreRefused() throws IOException {
        Path list = yaml("fluss:\n  bootstrap.servers: [a:1, b:2]\n");
        assertThatThrownBy(() -> LakeSyncConfig.load(list, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'fluss.bootstrap.servers'")
                .hasMessageContaining("list");
        Path empty = yaml("service:\n  port:\n");
        assertThatThrownBy(() -> LakeSyncConfig.load(empty, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'service.port'")
                .hasMessageContaining("no value");
        Path scalar = yaml("just a string\n");
        assertThatThrownBy(() -> LakeSyncConfig.load(scalar, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(scalar.toString());
    }

    @Test
    void emptyFileMeansDefaults() throws IOException {
        LakeSyncConfig config = LakeSyncConfig.load(yaml(""), Map.of());
        assertThat(config.get(LakeSyncOptions.SERVICE_PORT)).isEqualTo(8080);
    }

    @Test
    void withRevalidatesAndToMapRoundTrips() {
        LakeSyncConfig config = LakeSyncConfig.fromMap(
                Map.of("service.port", "9090", "fluss.bootstrap.servers", "c:9123", "datalake.paimon.warehouse", "/w"),
                "test");
        assertThat(config.toMap())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "service.port", "9090",
                        "fluss.bootstrap.servers", "c:9123",
                        "datalake.paimon.warehouse", "/w"));
        assertThat(LakeSyncConfig.fromMap(config.toMap(), "copy").toMap()).isEqualTo(config.toMap());

        LakeSyncConfig changed = config.with(Map.of("service.port", "0"));
        assertThat(changed.get(LakeSyncOptions.SERVICE_PORT)).isZero();
        assertThat(changed.flussClientOptions()).containsEntry("bootstrap.servers", "c:9123");
        assertThatThrownBy(() -> config.with(Map.of("service.port", "-x")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'service.port'");
    }
}
