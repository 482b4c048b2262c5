package io.lakesync.cli;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.server.LakeSyncServer;
import io.lakesync.tiering.TieringTestBase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

/** The CLI's client commands against a real service on the real stack: tables printed, refusals explained. */
class ClientCommandsTest extends TieringTestBase {

    private static final String OWNER = "owner-token-0123456789";
    private static final String VIEWER = "viewer-token-0123456789";

    private record Run(int exitCode, String out, String err) {}

    @Test
    void statusTablesAlertsAndServiceCommandsTalkToTheService() throws Exception {
        TablePath path = TablePath.of("fluss", "cli_orders");
        createTable(path, idTable(2, "1s"));
        append(path, ids(0, 500));
        try (LakeSyncServer server = LakeSyncServer.start(serviceConfig("cli-instance", Map.of(
                "service.port", "0",
                "status.refresh-interval", "300ms",
                "auth.tokens", "alice:owner:" + OWNER + ",grafana:viewer:" + VIEWER)))) {
            String url = server.url().toString();
            awaitTiered(path);
            eventually(Duration.ofSeconds(30), () -> {
                Run status = run("status", "--url", url, "--token", VIEWER);
                assertThat(status.exitCode()).as(status.err()).isZero();
                assertThat(status.out()).contains("TABLE", "STATE", "SYNC LATENCY", "CHECKPOINT", "PENDING")
                        .contains("fluss.cli_orders").contains("UP_TO_DATE").contains("snapshot ");
            });

            Run forbidden = run("tables", "disable", "fluss.cli_orders", "--url", url, "--token", VIEWER);
            assertThat(forbidden.exitCode()).isEqualTo(1);
            assertThat(forbidden.err()).contains("HTTP 403").contains("operator");

            Run refused = run("service", "disable", "--url", url, "--token", OWNER);
            assertThat(refused.exitCode()).isEqualTo(1);
            assertThat(refused.err()).contains("HTTP 409").contains("fluss.cli_orders");

            Run badName = run("tables", "enable", "no-dot", "--url", url, "--token", OWNER);
            assertThat(badName.exitCode()).isEqualTo(LakeSyncCli.BAD_INPUT);
            assertThat(badName.err()).contains("<database>.<table>");

            assertThat(run("alerts", "metrics", "--url", url, "--token", VIEWER).out())
                    .containsPattern("syncLatencyMs +lakesync_table_tierLag +milliseconds +gauge")
                    .containsPattern("failuresTotal +lakesync_table_failuresTotal +rounds +counter");
            assertThat(run("alerts", "set-channel", "ops", "--type", "log", "--url", url, "--token", OWNER).exitCode()).isZero();
            assertThat(run("alerts", "set-rule", "slow", "--metric", "syncLatencyMs", "--comparison", ">",
                    "--threshold", "5min", "--for", "2min", "--channel", "ops", "--url", url, "--token", OWNER).exitCode()).isZero();
            Run rules = run("alerts", "rules", "--url", url, "--token", VIEWER);
            assertThat(rules.out()).contains("slow").contains("syncLatencyMs > 5m 0s").contains("[\"ops\"]");
            Run invalid = run("alerts", "set-rule", "broken", "--metric", "nope", "--comparison", ">", "--threshold", "1",
                    "--url", url, "--token", OWNER);
            assertThat(invalid.exitCode()).isEqualTo(1);
            assertThat(invalid.err()).contains("HTTP 400").contains("metric");

            assertThat(run("tables", "disable", "fluss.cli_orders", "--url", url, "--token", OWNER).out())
                    .contains("Lake sync disabled for fluss.cli_orders");
            assertThat(run("service", "status", "--url", url, "--token", VIEWER).out()).contains("ON");
            Run instances = run("instances", "--url", url, "--token", VIEWER);
            assertThat(instances.exitCode()).as(instances.err()).isZero();
            assertThat(instances.out()).contains("INSTANCE", "STATE", "ROLE", "HELD/CAPACITY")
                    .contains("(this)").contains("ALIVE").contains("leader").contains(url);
        }
        Run noService = run("status", "--url", "http://127.0.0.1:1", "--token", VIEWER);
        assertThat(noService.exitCode()).isEqualTo(1);
        assertThat(noService.err()).contains("No lakesync service answers at http://127.0.0.1:1");
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = LakeSyncCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }
}
