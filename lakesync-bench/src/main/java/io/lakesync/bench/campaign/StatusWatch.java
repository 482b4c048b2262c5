package io.lakesync.bench.campaign;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakesync.bench.soak.LakeCoverage;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.fluss.metadata.TableBucket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Catches the status API lying: polls every running instance's {@code GET /api/v1/tables} and counts a lie for
 * each table it shows {@code UP_TO_DATE} while the truth says otherwise: its figures are stale (not observed),
 * or the lake was behind by more than the table's freshness plus what the status may lag by design (one refresh
 * interval, and a margin for the polls). The truth is the driver's own: Fluss end offsets sampled on every poll
 * ({@link WrittenHistory}) against the lake offsets read right after the instances answered. Lies count against
 * the {@linkplain #phase phase} the campaign is in.
 */
final class StatusWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatusWatch.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration MARGIN = Duration.ofSeconds(2);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ServiceInstances instances;
    private final LakeCoverage coverage;
    private final String token;
    private final Duration allowed;
    private final Consumer<String> progress;
    private final WrittenHistory history = new WrittenHistory(Duration.ofMinutes(10));
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();
    private final Map<String, Integer> lies = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile String phase = "start";
    private volatile boolean running = true;

    /** {@code freshness} of the tables and {@code refresh}, the instances' status refresh interval. */
    StatusWatch(ServiceInstances instances, LakeCoverage coverage, String token, Duration freshness, Duration refresh,
            Consumer<String> progress) {
        this.instances = instances;
        this.coverage = coverage;
        this.token = token;
        this.allowed = freshness.plus(refresh).plus(MARGIN);
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
                history.add(start, coverage.endOffsets());
                List<Claim> claims = new ArrayList<>();
                for (int i = 0; i < instances.count(); i++) {
                    claims.addAll(upToDateClaims(i));
                }
                if (!claims.isEmpty()) {
                    judge(claims, coverage.lakeOffsets(), System.nanoTime());
                }
                Thread.sleep(Math.max(0, POLL.toMillis() - (System.nanoTime() - start) / 1_000_000));
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                // Fluss or the coordinator did not answer the driver this time: no truth, no judgement.
                LOG.info("Status watch skipped a poll: {}", e.toString());
            }
        }
    }

    /** An instance showing a table {@code UP_TO_DATE}. */
    private record Claim(int instance, String table, long tableId, boolean stale) {}

    private List<Claim> upToDateClaims(int instance) {
        HttpRequest request = HttpRequest.newBuilder(instances.url(instance).resolve("/api/v1/tables"))
                .timeout(REQUEST_TIMEOUT)
                .header("Authorization", "Bearer " + token)
                .build();
        List<Map<String, Object>> tables;
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return List.of();
            }
            tables = JSON.readValue(response.body(), new TypeReference<>() {});
        } catch (Exception e) {
            // Down, starting, or frozen: an instance that does not answer claims nothing.
            return List.of();
        }
        return tables.stream()
                .filter(t -> "UP_TO_DATE".equals(t.get("state")))
                .map(t -> new Claim(instance, t.get("database") + "." + t.get("table"),
                        ((Number) t.get("tableId")).longValue(), Boolean.TRUE.equals(t.get("stale"))))
                .toList();
    }

    private void judge(List<Claim> claims, Map<TableBucket, Long> lake, long nowNanos) {
        for (Claim claim : claims) {
            Duration behind = history.behind(claim.tableId(), lake, nowNanos);
            if (claim.stale() || behind.compareTo(allowed) > 0) {
                String current = phase;
                lies.merge(current, 1, Integer::sum);
                progress.accept(String.format("status lie during %s: instance %d shows %s UP_TO_DATE while %s",
                        current, claim.instance(), claim.table(),
                        claim.stale() ? "its figures are stale" : String.format("the lake is %.1f s behind", behind.toMillis() / 1000.0)));
            }
        }
    }
}
