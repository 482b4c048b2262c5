package io.lakesync.cluster;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakesync.alert.WebhookReceiver;
import io.lakesync.state.PostgresServer;
import io.lakesync.tiering.TieringTestBase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.schema.SchemaChange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Three lakesync services in JVMs of their own on one PostgreSQL state and one Fluss cluster behave as one
 * service: they list each other, all three follow the switch turned off through one of them and on through another,
 * agree on every table's status (a failing one too), evaluate alerts on one elected instance (one webhook per
 * transition, across a kill of that instance), and a killed instance's tables move to the others with every row in
 * the lake exactly once.
 */
class ThreeInstancesTest extends TieringTestBase {

    private static final String OWNER = "owner-token-0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** What the issue asks of the switch (with the default heartbeat of 2 s; 500 ms here). */
    private static final Duration SWITCH_WITHIN = Duration.ofSeconds(10);
    private static final Pattern READY = Pattern.compile("READY (http://\\S+)");
    private static final List<TablePath> BUSY =
            List.of(TablePath.of("fluss", "cl_t0"), TablePath.of("fluss", "cl_t1"), TablePath.of("fluss", "cl_t2"));
    private static final TablePath BROKEN = TablePath.of("fluss", "cl_broken");
    private static final TablePath ALARM = TablePath.of("fluss", "cl_alarm");

    @RegisterExtension
    static PostgresServer postgres = new PostgresServer();

    private final HttpClient http = HttpClient.newHttpClient();
    private final Map<String, Process> processes = new LinkedHashMap<>();
    private final Map<String, URI> urls = new HashMap<>();
    private final Map<TablePath, Long> written = new ConcurrentHashMap<>();
    private final AtomicBoolean writing = new AtomicBoolean();

    @AfterEach
    void stopInstances() throws Exception {
        writing.set(false);
        for (Process process : processes.values()) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void threeInstancesBehaveAsOneService() throws Exception {
        String stateUrl = postgres.newDatabase();
        try (WebhookReceiver webhook = new WebhookReceiver()) {
            for (String id : List.of("a", "b", "c")) {
                start(id, stateUrl);
            }
            for (String id : List.of("a", "b", "c")) {
                awaitReady(id);
            }

            // 1. Membership: every instance lists all three alive, and the same single leader.
            awaitOneLeader(Set.of("a", "b", "c"));

            // 2. The switch, all three alive: off through one instance stops the engines of all three (no table has
            //    lake sync on yet, as turning it off requires) ...
            assertThat(post("a", "/api/v1/service/disable").statusCode()).isEqualTo(200);
            awaitLogOnAll("lakesync service switched off", SWITCH_WITHIN);
            // ... so tables made while it is off, with a freshness of 1 s and records pending, are not tiered; and
            // the broken table gets no round before its lake schema is changed behind Fluss's back.
            for (TablePath path : BUSY) {
                createTable(path, idTable(2, "1s"));
                write(path, 500);
            }
            createTable(BROKEN, idTable(1, "1s"));
            append(BROKEN, ids(0, 10));
            lake.catalog().alterTable(Identifier.create(BROKEN.getDatabaseName(), BROKEN.getTableName()),
                    SchemaChange.addColumn("sneaky", org.apache.paimon.types.DataTypes.INT(), null,
                            SchemaChange.Move.before("sneaky", "__bucket")), false);
            // A freshness of an hour keeps its records pending (the alert fires) until the test shortens it.
            createTable(ALARM, idTable(1, "1h"));
            append(ALARM, ids(0, 300));
            eventually(WAIT, () -> {
                for (String id : processes.keySet()) {
                    JsonNode busy = get(id, "/api/v1/tables/fluss/cl_t0");
                    assertThat(busy.get("pendingRecords").asLong()).as("on " + id).isEqualTo(500);
                    assertThat(busy.get("reason").asText()).contains("switched off");
                }
            });
            for (TablePath path : BUSY) {
                assertThat(lakeIds(path)).as("nothing tiered while switched off: " + path).isEmpty();
            }
            // ... and on through another restarts them all.
            assertThat(post("b", "/api/v1/service/enable").statusCode()).isEqualTo(200);
            awaitLogOnAll("lakesync service switched on", SWITCH_WITHIN);
            String leader = awaitOneLeader(Set.of("a", "b", "c"));

            // 3. One truth per table: all three show the broken table blocked with the same failures and error.
            eventually(WAIT, () -> {
                Set<String> views = new HashSet<>();
                for (String id : processes.keySet()) {
                    JsonNode broken = get(id, "/api/v1/tables/fluss/cl_broken");
                    JsonNode activity = broken.get("activity");
                    assertThat(broken.get("state").asText()).as("on " + id).isEqualTo("BLOCKED");
                    assertThat(activity.get("lastError").asText()).contains("changed outside Fluss");
                    assertThat(activity.get("holder").asText()).isIn("a", "b", "c");
                    views.add(broken.get("state").asText() + "|" + activity.get("failures").asLong() + "|"
                            + activity.get("lastError").asText() + "|" + activity.get("holder").asText());
                    assertThat(get(id, "/api/v1/tables")).hasSize(5);
                }
                assertThat(views).as("one view of the failing table on every instance").hasSize(1);
            });

            // 4. Alerts: evaluated on the leader only, one webhook for FIRING ...
            put("a", "/api/v1/alerts/channels/hook", Map.of("type", "webhook", "url", webhook.url().toString()));
            put("b", "/api/v1/alerts/rules/backlog", Map.of("metric", "pendingRecords", "comparison", ">",
                    "threshold", "100", "for", "0s", "tables", ALARM.toString(), "channels", List.of("hook")));
            WebhookReceiver.Received firing = webhook.next(WAIT);
            assertThat(firing).isNotNull();
            assertThat(firing.body().toString()).contains("FIRING").contains(ALARM.toString());

            // ... then the leader is killed while it holds tables (one worker per instance and more tables to sync
            // than workers: each instance holds one); they move to the others, and one webhook for RESOLVED.
            Thread writer = startWriter();
            List<String> held = new ArrayList<>();
            eventually(WAIT, () -> {
                held.clear();
                for (JsonNode instance : get(leader, "/api/v1/instances").get("instances")) {
                    if (instance.get("id").asText().equals(leader)) {
                        instance.get("tablesHeld").forEach(t -> held.add(t.asText()));
                    }
                }
                assertThat(held).as("tables the leader holds").isNotEmpty();
            });
            processes.get(leader).destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            Set<String> alive = new HashSet<>(Set.of("a", "b", "c"));
            alive.remove(leader);
            processes.remove(leader);
            String successor = awaitOneLeader(alive);
            assertThat(get(successor, "/api/v1/instances").get("instances").findValuesAsText("state"))
                    .containsExactlyInAnyOrder("ALIVE", "ALIVE", "DEAD");
            awaitLog(successor, "Instance " + leader + " died holding " + held.size() + " table(s)", WAIT);
            writing.set(false);
            writer.join();
            admin.alterTable(ALARM, List.of(TableChange.set("table.datalake.freshness", "1s")), false).get();
            WebhookReceiver.Received resolved = webhook.next(Duration.ofSeconds(60));
            assertThat(resolved).isNotNull();
            assertThat(resolved.body().toString()).contains("RESOLVED").contains(ALARM.toString());
            JsonNode events = get(successor, "/api/v1/alerts/events?rule=backlog");
            assertThat(events.findValuesAsText("state")).containsExactlyInAnyOrder("FIRING", "RESOLVED");

            // 5. Every row of the busy tables exactly once, the dead instance's tables synced by the others long
            //    before the coordinator's own 2-minute timeout would have freed them.
            for (TablePath path : BUSY) {
                eventually(Duration.ofSeconds(60), () -> assertThat(lakeIds(path)).hasSize(written.get(path).intValue()));
                List<Long> ids = lakeIds(path);
                assertThat(new HashSet<>(ids)).as("no duplicates in " + path).hasSize(ids.size());
                assertThat(ids).as(path.toString()).allSatisfy(id -> assertThat(id).isBetween(0L, written.get(path) - 1));
            }
            assertThat(webhook.drain()).as("no further notifications").isEmpty();
        }
    }

    private void start(String id, String stateUrl) throws Exception {
        Map<String, String> config = new HashMap<>(serviceConfig("instance-" + id, Map.of()).toMap());
        config.put("service.port", "0");
        config.put("cluster.instance-id", id);
        config.put("cluster.heartbeat-interval", "500ms");
        config.put("cluster.instance-timeout", "3s");
        config.put("status.refresh-interval", "500ms");
        config.put("alert.evaluation-interval", "500ms");
        config.put("tiering.workers", "1");
        config.put("tiering.bucket-parallelism", "1");
        config.put("auth.tokens", "test:owner:" + OWNER);
        config.put("state.jdbc-url", stateUrl);
        config.put("state.jdbc-user", PostgresServer.SUPERUSER);
        config.put("state.jdbc-password", PostgresServer.PASSWORD);
        processes.put(id, ServiceProcessMain.startChild(config, log(id)));
    }

    private Path log(String id) {
        return root.resolve("instance-" + id + ".log");
    }

    private void awaitReady(String id) throws Exception {
        eventually(START_TIMEOUT, () -> {
            assertThat(processes.get(id).isAlive()).as("instance " + id + " runs; its log:\n" + logOf(id)).isTrue();
            Matcher ready = READY.matcher(logOf(id));
            assertThat(ready.find()).isTrue();
            urls.put(id, URI.create(ready.group(1)));
        });
    }

    private void awaitLog(String id, String line, Duration timeout) throws Exception {
        eventually(timeout, () -> assertThat(logOf(id)).contains(line));
    }

    /** Waits until every running instance logged {@code line}, all within one {@code timeout}. */
    private void awaitLogOnAll(String line, Duration timeout) throws Exception {
        eventually(timeout, () -> {
            for (String id : processes.keySet()) {
                assertThat(logOf(id)).as("instance " + id).contains(line);
            }
        });
    }

    private String logOf(String id) throws Exception {
        return Files.exists(log(id)) ? Files.readString(log(id)) : "";
    }

    /** Waits until every instance in {@code ids} lists them all alive and names the same one leader. */
    private String awaitOneLeader(Set<String> ids) throws Exception {
        String[] leader = new String[1];
        eventually(WAIT, () -> {
            Set<String> leaders = new HashSet<>();
            for (String id : ids) {
                JsonNode answer = get(id, "/api/v1/instances");
                Set<String> aliveIds = new HashSet<>();
                for (JsonNode instance : answer.get("instances")) {
                    if (instance.get("state").asText().equals("ALIVE")) {
                        aliveIds.add(instance.get("id").asText());
                    }
                    if (instance.get("leader").asBoolean()) {
                        leaders.add(instance.get("id").asText());
                    }
                }
                assertThat(aliveIds).as("alive, as " + id + " sees it").isEqualTo(ids);
            }
            assertThat(leaders).hasSize(1);
            leader[0] = leaders.iterator().next();
            assertThat(ids).contains(leader[0]);
        });
        return leader[0];
    }

    private void write(TablePath path, int rows) throws Exception {
        long from = written.getOrDefault(path, 0L);
        append(path, ids(from, from + rows));
        written.put(path, from + rows);
    }

    /** Keeps appending to the busy tables (so the instances hold them) until {@link #writing} is cleared. */
    private Thread startWriter() {
        writing.set(true);
        Thread writer = new Thread(() -> {
            try {
                while (writing.get()) {
                    for (TablePath path : BUSY) {
                        write(path, 100);
                    }
                    Thread.sleep(200); // pacing the writes, not synchronisation
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "test-writer");
        writer.start();
        return writer;
    }

    private static List<Long> lakeIds(TablePath path) throws Exception {
        return readLake(path, "id").stream().map(row -> (Long) row.get(0)).toList();
    }

    private JsonNode get(String id, String path) throws Exception {
        HttpResponse<String> response = send(id, HttpRequest.newBuilder(urls.get(id).resolve(path)).GET());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private void put(String id, String path, Object body) throws Exception {
        HttpResponse<String> response = send(id, HttpRequest.newBuilder(urls.get(id).resolve(path))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
        assertThat(response.statusCode()).as(path + ": " + response.body()).isBetween(200, 201);
    }

    private HttpResponse<String> post(String id, String path) throws Exception {
        return send(id, HttpRequest.newBuilder(urls.get(id).resolve(path)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    private HttpResponse<String> send(String id, HttpRequest.Builder request) throws Exception {
        return http.send(request.header("Authorization", "Bearer " + OWNER).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
