package io.lakesync.cli;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lakesync.metrics.TableMetric;
import io.lakesync.server.LakeSyncServer;
import io.lakesync.tiering.TieringTestBase;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

/**
 * Metering and quotas on the real stack: one lakesync service, a database capped at 1 CU with two busy tables
 * and a table of another database. The capped tables take turns with the reason in their status while the other
 * syncs; the usage the API and CLI report equals the CPU time the engine's round and reader threads really
 * spent (measured from outside, per thread) within 10%, and counts every tiered row once.
 */
class UsageAndQuotaTest extends TieringTestBase {

    private static final String TOKEN = "usage-owner-token-0123456789";
    private static final int CAPPED_ROWS = 100_000;
    private static final int FREE_ROWS = 20_000;
    private static final double PROVISIONED_CU = 0.0001;

    @Test
    void quotaHoldsADatabaseBackVisiblyAndUsageMatchesTheRoundsCpu() throws Exception {
        admin.createDatabase("capped", DatabaseDescriptor.EMPTY, true).get();
        admin.createDatabase("metered", DatabaseDescriptor.EMPTY, true).get();
        TablePath cappedA = TablePath.of("capped", "a");
        TablePath cappedB = TablePath.of("capped", "b");
        TablePath free = TablePath.of("metered", "free");
        for (TablePath path : List.of(cappedA, cappedB, free)) {
            createTable(path, idTable(2, "1s"));
        }
        append(cappedA, ids(0, CAPPED_ROWS));
        append(cappedB, ids(0, CAPPED_ROWS));
        append(free, ids(0, FREE_ROWS));
        Set<Long> earlierThreads = Thread.getAllStackTraces().keySet().stream().map(Thread::getId).collect(Collectors.toSet());

        try (LakeSyncServer server = LakeSyncServer.start(serviceConfig("usage-instance", Map.of(
                "service.port", "0",
                // Rounds in a cold JVM, so that the metered CPU dwarfs the round threads' unmetered overhead
                // (about 40 ms) that the 10% tolerance below is calibrated on.
                "tiering.warm-up", "false",
                "status.refresh-interval", "300ms",
                "auth.tokens", "owner:owner:" + TOKEN,
                "quota.database-cu", "capped:1",
                "billing.provisioned-cu", String.valueOf(PROVISIONED_CU))))) {
            String url = server.url().toString();
            eventually(Duration.ofSeconds(60), () -> assertThat(server.status().tables()).anySatisfy(status -> {
                assertThat(status.database()).isEqualTo("capped");
                assertThat(status.reason()).startsWith(
                        "Held back by the quota of database 'capped': 1 of 1 CUs in use (quota.database-cu)");
                assertThat(TableMetric.QUOTA_HELD_BACK.read(status, Instant.now())).isEqualTo(1.0);
            }));
            awaitTiered(free);
            awaitTiered(cappedA);
            awaitTiered(cappedB);

            double threadCpuBefore = roundThreadsCpuSeconds(earlierThreads);
            CliRun csv = CliRun.of("usage", "--by", "table", "--csv", "--url", url, "--token", TOKEN);
            double threadCpuAfter = roundThreadsCpuSeconds(earlierThreads);
            assertThat(csv.exitCode()).as(csv.err()).isZero();
            Map<String, String[]> lines = csvLines(csv.out());
            assertThat(lines).containsKeys("capped.a", "capped.b", "metered.free", "total");

            double meteredCpu = Double.parseDouble(lines.get("total")[2]);
            assertThat(meteredCpu).as("metered CPU vs the round and reader threads' CPU of %.3f..%.3f s",
                            threadCpuBefore, threadCpuAfter)
                    .isBetween(threadCpuBefore * 0.9, threadCpuAfter * 1.1);
            assertThat(Long.parseLong(lines.get("capped.a")[7])).isEqualTo(CAPPED_ROWS);
            assertThat(Long.parseLong(lines.get("capped.b")[7])).isEqualTo(CAPPED_ROWS);
            assertThat(Long.parseLong(lines.get("metered.free")[7])).isEqualTo(FREE_ROWS);
            for (String table : List.of("capped.a", "capped.b", "metered.free")) {
                String[] line = lines.get(table);
                double cpu = Double.parseDouble(line[2]);
                double memoryGibSeconds = Double.parseDouble(line[3]);
                double cuHours = Double.parseDouble(line[4]);
                assertThat(cpu).as(table).isPositive();
                assertThat(cuHours).as(table + ": CU-hours are the CPU or memory hours, capped by the rounds' wall "
                                + "time (one CU per running round)")
                        .isPositive()
                        .isLessThanOrEqualTo(Math.max(cpu, memoryGibSeconds / 4) / 3600 + 1e-6);
                assertThat(Double.parseDouble(line[5]) + Double.parseDouble(line[6])).isCloseTo(cuHours, within(2e-6));
            }
            double totalCuHours = Double.parseDouble(lines.get("total")[4]);
            assertThat(Double.parseDouble(lines.get("total")[5])).as("provisioned CU-hours, within one or two hours")
                    .isLessThanOrEqualTo(2 * PROVISIONED_CU + 1e-6)
                    .isGreaterThanOrEqualTo(Math.min(totalCuHours, PROVISIONED_CU) - 1e-6);

            CliRun byDatabase = CliRun.of("usage", "--by", "database", "--url", url, "--token", TOKEN);
            assertThat(byDatabase.out()).contains("Usage by database from ").contains("(provisioned: 1.0E-4 CU)")
                    .contains("KEY", "CU-HOURS", "PROVISIONED", "PAY-AS-YOU-GO").contains("capped ").contains("metered ")
                    .contains("A CU is one running round (what quota.cluster-cu and quota.database-cu count), metered "
                            + "as at most one CU-hour per hour");
            CliRun badGrouping = CliRun.of("usage", "--by", "week", "--url", url, "--token", TOKEN);
            assertThat(badGrouping.exitCode()).isEqualTo(1);
            assertThat(badGrouping.err()).contains("HTTP 400").contains("Parameter 'by' must be table, database or day, not 'week'.");
            CliRun badTime = CliRun.of("usage", "--from", "yesterday", "--url", url, "--token", TOKEN);
            assertThat(badTime.err()).contains("HTTP 400").contains("Parameter 'from' must be a UTC time");
        }
    }

    /** CPU seconds of the engine's round and reader threads started since {@code earlier} was taken. */
    private static double roundThreadsCpuSeconds(Set<Long> earlier) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long nanos = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            boolean engineThread = thread.getName().startsWith("lakesync-round-") || thread.getName().startsWith("lakesync-reader-");
            if (engineThread && !earlier.contains(thread.getId())) {
                nanos += Math.max(0, threads.getThreadCpuTime(thread.getId()));
            }
        }
        return nanos / 1e9;
    }

    private static Map<String, String[]> csvLines(String csv) {
        Map<String, String[]> lines = new HashMap<>();
        Arrays.stream(csv.split("\n")).skip(1).map(line -> line.split(",")).forEach(cells -> lines.put(cells[0], cells));
        return lines;
    }
}
