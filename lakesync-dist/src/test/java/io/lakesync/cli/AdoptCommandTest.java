package io.lakesync.cli;

import static io.lakesync.local.Eventually.eventually;
import static io.lakesync.tiering.RecreatedTables.awaitTieredFresh;
import static io.lakesync.tiering.RecreatedTables.enableByAlter;
import static io.lakesync.tiering.RecreatedTables.lakeIds;
import static io.lakesync.tiering.RecreatedTables.logTable;
import static io.lakesync.tiering.RecreatedTables.pkTable;
import static io.lakesync.tiering.RecreatedTables.recreate;
import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.server.LakeSyncServer;
import io.lakesync.status.TableState;
import io.lakesync.status.TableStatus;
import io.lakesync.tiering.TieringTestBase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

/**
 * {@code lakesync tables adopt} through the HTTP API of a real service: a re-created log table and primary-key
 * table whose lake tables hold a dropped table's rows show as BLOCKED with the reason, refusals are explained,
 * and after adopting every row of each new table is in the lake once, beside the retained ones.
 */
class AdoptCommandTest extends TieringTestBase {

    private static final String OPERATOR = "operator-token-0123456789";
    private static final String VIEWER = "viewer-token-0123456789";
    private static final TablePath EVENTS = TablePath.of("adopt", "events");
    private static final TablePath ACCOUNTS = TablePath.of("adopt", "accounts");

    private record Run(int exitCode, String out, String err) {}

    @Test
    void adoptContinuesSyncingIntoTheRetainedLakeTable() throws Exception {
        admin.createDatabase("adopt", DatabaseDescriptor.EMPTY, true).get();
        createTable(EVENTS, logTable(true));
        createTable(ACCOUNTS, pkTable(true));
        append(EVENTS, ids(0, 3_000));
        upsert(ACCOUNTS, ids(0, 3_000), false);
        try (LakeSyncServer server = LakeSyncServer.start(serviceConfig("adopt-cli-instance", Map.of(
                "service.port", "0",
                "status.refresh-interval", "300ms",
                "tiering.blocked-recheck-interval", "500ms",
                "auth.tokens", "ops:operator:" + OPERATOR + ",grafana:viewer:" + VIEWER)))) {
            String url = server.url().toString();
            awaitTiered(EVENTS);
            awaitTiered(ACCOUNTS);
            recreate(EVENTS, logTable(false), ids(10_000, 10_600), false);
            recreate(ACCOUNTS, pkTable(false), ids(10_000, 10_600), true);
            enableByAlter(EVENTS);
            enableByAlter(ACCOUNTS);

            eventually(SYNC_TIMEOUT, () -> assertThat(status(server, EVENTS)).satisfies(s -> {
                assertThat(s.state()).isEqualTo(TableState.BLOCKED);
                assertThat(s.reason()).contains("Lake table adopt.events holds 3000 rows tiered from a dropped Fluss table")
                        .contains("lakesync tables adopt adopt.events");
            }));

            Run badName = run("tables", "adopt", "no-dot", "--url", url, "--token", OPERATOR);
            assertThat(badName.exitCode()).isEqualTo(LakeSyncCli.BAD_INPUT);
            assertThat(badName.err()).contains("<database>.<table>");
            Run invalid = run("tables", "adopt", "adopt.bad*name", "--url", url, "--token", OPERATOR);
            assertThat(invalid.exitCode()).isEqualTo(1);
            assertThat(invalid.err()).contains("HTTP 400").contains("'table' is not a valid Fluss name");
            Run missing = run("tables", "adopt", "adopt.missing", "--url", url, "--token", OPERATOR);
            assertThat(missing.err()).contains("HTTP 409").contains("There is no Fluss table adopt.missing");
            Run viewer = run("tables", "adopt", "adopt.events", "--url", url, "--token", VIEWER);
            assertThat(viewer.err()).contains("HTTP 403");
            Run withoutFlag = run("tables", "adopt", "adopt.accounts", "--url", url, "--token", OPERATOR);
            assertThat(withoutFlag.exitCode()).isEqualTo(1);
            assertThat(withoutFlag.err()).contains("HTTP 409").contains("has a primary key").contains("--keep-old-keys");

            Run adopted = run("tables", "adopt", "adopt.events", "--url", url, "--token", OPERATOR);
            assertThat(adopted.exitCode()).as(adopted.err()).isZero();
            assertThat(adopted.out()).contains("Adopted lake table adopt.events (3000 retained rows)");
            Run again = run("tables", "adopt", "adopt.events", "--url", url, "--token", OPERATOR);
            assertThat(again.err()).as("a table that is not blocked").contains("HTTP 409").contains("does not need adopting");
            Run pk = run("tables", "adopt", "adopt.accounts", "--keep-old-keys", "--url", url, "--token", OPERATOR);
            assertThat(pk.exitCode()).as(pk.err()).isZero();

            awaitTieredFresh(EVENTS);
            awaitTieredFresh(ACCOUNTS);
            eventually(SYNC_TIMEOUT, () -> assertThat(status(server, EVENTS).state()).isEqualTo(TableState.UP_TO_DATE));
        }
        List<Long> expected = LongStream.concat(LongStream.range(0, 3_000), LongStream.range(10_000, 10_600)).boxed().toList();
        assertThat(lakeIds(EVENTS)).as("3,000 retained rows and each of the 600 new rows once")
                .hasSize(3_600).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(lakeIds(ACCOUNTS)).as("old keys kept, new keys added")
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    private static TableStatus status(LakeSyncServer server, TablePath path) {
        return server.status().tables().stream()
                .filter(s -> s.name().equals(path.toString()))
                .findFirst()
                .orElseThrow(() -> new AssertionError(path + " is not in the status yet"));
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = LakeSyncCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }
}
