package io.lakesync.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.lakesync.config.LakeSyncConfig;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a tiering job's parameters are read and compared with what lakesync serves, and the refusals that change
 * nothing. Flink's answers for jobs that do not show their cluster, or tier another lake format, come from a
 * stand-in REST endpoint with Flink's response shapes: the real tiering job is in MigrateCommandTest.
 */
class MigrationTest {

    private static final LakeSyncConfig SERVED = LakeSyncConfig.fromMap(Map.of(
            "fluss.bootstrap.servers", "127.0.0.1:9123",
            "datalake.paimon.metastore", "filesystem",
            "datalake.paimon.warehouse", "/lake/wh"), "test");

    private static final Migration.Options OPTIONS = new Migration.Options(Set.of(), false, Duration.ofSeconds(60));

    private HttpServer flink;

    @AfterEach
    void stopFlink() {
        if (flink != null) {
            flink.stop(0);
        }
    }

    @Test
    void aServiceThatIsOffOrUnhealthyIsRefusedBeforeFlinkIsAsked() {
        Migration migration = new Migration(new FlinkRestClient(URI.create("http://127.0.0.1:1")),
                () -> Optional.of("the service is switched off; run 'lakesync service enable' first."), SERVED, OPTIONS);
        assertThatThrownBy(migration::plan)
                .isInstanceOf(MigrationRefusedException.class)
                .hasMessage("lakesync cannot take over: the service is switched off; run 'lakesync service enable' "
                        + "first.");
    }

    @Test
    void noFlinkEndpointIsRefusedNamingFlinkGoneForAJobClusterThatShutDown() {
        Migration migration = new Migration(new FlinkRestClient(URI.create("http://127.0.0.1:1")),
                Optional::empty, SERVED, OPTIONS);
        assertThatThrownBy(migration::plan)
                .isInstanceOf(MigrationRefusedException.class)
                .hasMessage("No Flink REST endpoint answers at http://127.0.0.1:1 (--flink-url; ConnectException). If "
                        + "the tiering job ran on a Flink cluster of its own (application or per-job mode) that shut "
                        + "down when it was cancelled, run again with --flink-gone to finish the take-over.");
    }

    @Test
    void aJobThatDoesNotShowWhereItTiersNeedsConfirming() throws Exception {
        URI url = flinkWithOneJob("{}");
        Migration migration = new Migration(new FlinkRestClient(url), Optional::empty, SERVED, OPTIONS);
        assertThatThrownBy(migration::plan)
                .isInstanceOf(MigrationRefusedException.class)
                .hasMessageContaining("Flink job j1 (Fluss Lake Tiering Service - paimon) does not show which Fluss "
                        + "cluster and lake it tiers")
                .hasMessageContaining("serves 127.0.0.1:9123 and /lake/wh, then pass --confirm-job j1.");
    }

    @Test
    void aJobTieringAnotherLakeFormatOrLakeIsLeftAlone() throws Exception {
        URI iceberg = flinkWithOneJob("{\"fluss.bootstrap.servers\": \"127.0.0.1:9123\", \"datalake.format\": "
                + "\"iceberg\", \"datalake.iceberg.warehouse\": \"/lake/wh\"}");
        assertThatThrownBy(new Migration(new FlinkRestClient(iceberg), Optional::empty, SERVED, OPTIONS)::plan)
                .hasMessage("Flink job j1 tiers into 'iceberg'; lakesync tiers into paimon only. Leave that job "
                        + "running.");
        flink.stop(0);
        URI otherLake = flinkWithOneJob("{\"fluss.bootstrap.servers\": \"127.0.0.1:9123\", \"datalake.format\": "
                + "\"paimon\", \"datalake.paimon.warehouse\": \"file:///other/wh\"}");
        assertThatThrownBy(new Migration(new FlinkRestClient(otherLake), Optional::empty, SERVED, OPTIONS)::plan)
                .hasMessage("Flink job j1 tiers into the lake at file:///other/wh, but this lakesync writes to "
                        + "/lake/wh (datalake.paimon.warehouse).");
    }

    /** A Flink REST endpoint with one running tiering job whose global job parameters are {@code userConfig}. */
    private URI flinkWithOneJob(String userConfig) throws Exception {
        return flinkAnswering(200, Map.of(
                "/jobs/overview", "{\"jobs\": [{\"jid\": \"j1\", \"name\": \"Fluss Lake Tiering Service - paimon\", "
                        + "\"state\": \"RUNNING\", \"end-time\": -1}]}",
                "/jobs/j1/config", "{\"jid\": \"j1\", \"execution-config\": {\"user-config\": " + userConfig + "}}"));
    }

    /** A Flink REST endpoint giving {@code answers} by path with {@code status}, 404 for any other path. */
    private URI flinkAnswering(int status, Map<String, String> answers) throws Exception {
        flink = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        flink.createContext("/", exchange -> {
            String body = answers.get(exchange.getRequestURI().getPath());
            byte[] bytes = (body == null ? "{\"errors\": [\"Not found\"]}" : body).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(body == null ? 404 : status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        flink.start();
        return URI.create("http://127.0.0.1:" + flink.getAddress().getPort());
    }

    @Test
    void flinkAnsweringWithAnErrorIsOneLineNamingTheCall() throws Exception {
        URI url = flinkAnswering(500, Map.of("/jobs/overview", "{\"errors\": [\"Internal server error.\", \"<Exception "
                + "on server side:\\norg.apache.flink.runtime.rest.handler.RestHandlerException\\n\\tat ...>\"]}"));
        assertThatThrownBy(new Migration(new FlinkRestClient(url), Optional::empty, SERVED, OPTIONS)::plan)
                .isInstanceOf(FlinkRestClient.FlinkRestException.class)
                .hasMessage("Flink at " + url + " answered 500 to GET /jobs/overview: Internal server error.");
    }

    @Test
    void applicationModeProgramArgumentsBecomeParameters() {
        assertThat(FlinkRestClient.programArguments(
                "--fluss.bootstrap.servers;fluss-0:9123,fluss-1:9123;--datalake.format;paimon;--verbose;"
                        + "--datalake.paimon.warehouse;s3://lake/wh"))
                .isEqualTo(Map.of(
                        "fluss.bootstrap.servers", "fluss-0:9123,fluss-1:9123",
                        "datalake.format", "paimon",
                        "datalake.paimon.warehouse", "s3://lake/wh"));
        assertThat(FlinkRestClient.programArguments(
                "[--fluss.bootstrap.servers, 'fluss-0:9123,fluss-1:9123', --fluss.tiering.poll.table.interval, 500 ms, "
                        + "--datalake.format, paimon, --datalake.paimon.warehouse, /lake/0755]"))
                .isEqualTo(Map.of(
                        "fluss.bootstrap.servers", "fluss-0:9123,fluss-1:9123",
                        "fluss.tiering.poll.table.interval", "500 ms",
                        "datalake.format", "paimon",
                        "datalake.paimon.warehouse", "/lake/0755"));
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
