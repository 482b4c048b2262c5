package io.lakesync.bench.campaign;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakesync.bench.soak.LakeCoverage;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Catches the status API lying: polls every running instance's {@code GET /api/v1/tables} and counts a lie for
 * each table it shows {@code UP_TO_DATE} while the truth says otherwise: its figures are stale (not observed), or
 * at the moment it observed them ({@code observedAt}, set back by the clock offset the campaign gave the
 * instance) the lake was behind by more than the table's freshness plus a margin for the sampling. The truth is
 * the driver's own ({@link WrittenHistory}): Fluss end offsets sampled before each poll, lake offsets right after
 * it. Lies count against the {@linkplain #phase phase} the campaign is in.
 */
final class StatusWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatusWatch.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);
    /** Two samples' spacing: the Fluss sample a late row shows up in, and the poll's own time. */
    private static final Duration MARGIN = POLL.multipliedBy(3);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ServiceInstances instances;
    private final LakeCoverage coverage;
    private final String token;
    private final Duration allowed;
    private final Consumer<String> progress;
    private final WrittenHistory history = new WrittenHistory(Duration.ofMinutes(10));
    /** A moment on both clocks, to place the instances' instants on this JVM's nanosecond clock. */
    private final long wallMillisAtStart = System.currentTimeMillis();
    private final long nanosAtStart = System.nanoTime();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();
    private final Map<String, Integer> lies = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile String phase = "start";
    private volatile boolean running = true;

    /** {@code freshness}: of the tables. */
    StatusWatch(ServiceInstances instances, LakeCoverage coverage, String token, Duration freshness,
            Consumer<String> progress) {
        this.instances = instances;
        this.coverage = coverage;
        this.token = token;
        this.allowed = freshness.plus(MARGIN);
        this.progress = progress;
        this.thread = new Thread(this::watch, "campaign-status-watch");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Lies from now on count against {@code name}. */
    void phase(String name) {
        phase = name;
    }

    /** Lies counted so far, by phase. */
    Map<String, Integer> lies() {
        return Map.copyOf(lies);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join();
    }

    private void watch() {
        while (running) {
            long start = System.nanoTime();
            try {
                history.fluss(start, coverage.endOffsets());
                List<Claim> claims = new ArrayList<>();
                for (int i = 0; i < instances.count(); i++) {
                    claims.addAll(upToDateClaims(i));
                }
                history.lake(System.nanoTime(), coverage.lakeOffsets());
                judge(claims);
                Thread.sleep(Math.max(0, POLL.toMillis() - (System.nanoTime() - start) / 1_000_000));
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                // Fluss or the coordinator did not answer the driver this time: no truth, no judgement.
                LOG.info("Status watch skipped a poll: {}", e.toString());
            }
        }
    }

    /** An instance showing a table {@code UP_TO_DATE}, as observed at {@code atNanos} (this JVM's clock). */
    private record Claim(int instance, String table, long tableId, boolean stale, long atNanos) {}

    private List<Claim> upToDateClaims(int instance) {
        HttpRequest request = HttpRequest.newBuilder(instances.url(instance).resolve("/api/v1/tables"))
                .timeout(REQUEST_TIMEOUT)
                .header("Authorization", "Bearer " + token)
                .build();
        long offsetMillis = instances.clockOffset(instance).toMillis();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return List.of();
            }
            List<Map<String, Object>> tables = JSON.readValue(response.body(), new TypeReference<>() {});
            return tables.stream()
                    .filter(t -> "UP_TO_DATE".equals(t.get("state")))
                    .map(t -> new Claim(instance, t.get("database") + "." + t.get("table"),
                            ((Number) t.get("tableId")).longValue(), Boolean.TRUE.equals(t.get("stale")),
                            nanosAtStart + (Instant.parse((String) t.get("observedAt")).toEpochMilli() - offsetMillis
                                    - wallMillisAtStart) * 1_000_000))
                    .toList();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (Exception e) {
            // Down, starting, or frozen: an instance that does not answer claims nothing.
            return List.of();
        }
    }

    private void judge(List<Claim> claims) {
        for (Claim claim : claims) {
            Duration behind = history.behind(claim.tableId(), claim.atNanos()).orElse(Duration.ZERO);
            if (claim.stale() || behind.compareTo(allowed) > 0) {
                String current = phase;
                lies.merge(current, 1, Integer::sum);
                progress.accept(String.format("status lie during %s: instance %d shows %s UP_TO_DATE while %s",
                        current, claim.instance(), claim.table(),
                        claim.stale() ? "its figures are stale" : String.format("the lake was %.1f s behind when it looked", behind.toMillis() / 1000.0)));
            }
        }
    }
}
