package io.lakesync.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Fluss lake tiering job on a Flink cluster, recognised as Fluss's {@code LakeTieringJobBuilder} builds it: the
 * default name {@code Fluss Lake Tiering Service - <format>}, or (renamed) a plan with its {@code TieringSource}
 * and {@code TieringCommitter} operators. Where it tiers to comes from its parameters, the arguments Fluss's
 * tiering entry point takes ({@code fluss.bootstrap.servers}, {@code datalake.format},
 * {@code datalake.<format>.warehouse}); {@code null} where the job does not show them.
 *
 * @param endTime when the job ended (epoch millis), -1 while it runs
 */
public record TieringJob(
        String id, String name, String state, long endTime, String bootstrapServers, String lakeFormat,
        String warehouse) {

    static final String DEFAULT_NAME_PREFIX = "Fluss Lake Tiering Service";
    private static final Set<String> TERMINAL_STATES = Set.of("FINISHED", "CANCELED", "FAILED");

    public boolean running() {
        return running(state);
    }

    /** Whether a job in this Flink job state has yet to end. */
    static boolean running(String state) {
        return !TERMINAL_STATES.contains(state);
    }

    /** Every Fluss tiering job the cluster knows, running or ended. */
    static List<TieringJob> list(FlinkRestClient flink) throws IOException, InterruptedException {
        List<TieringJob> jobs = new ArrayList<>();
        for (JsonNode overview : flink.jobs()) {
            String id = overview.path("jid").asText();
            String name = overview.path("name").asText();
            if (!name.startsWith(DEFAULT_NAME_PREFIX) && !hasTieringOperators(flink.operators(id))) {
                continue;
            }
            Map<String, String> parameters = flink.parameters(id);
            String format = parameters.get("datalake.format");
            jobs.add(new TieringJob(id, name, overview.path("state").asText(), overview.path("end-time").asLong(-1),
                    parameters.get("fluss.bootstrap.servers"), format,
                    format == null ? null : parameters.get("datalake." + format + ".warehouse")));
        }
        return jobs;
    }

    private static boolean hasTieringOperators(List<String> operators) {
        return operators.stream().anyMatch(o -> o.contains("TieringSource"))
                && operators.stream().anyMatch(o -> o.contains("TieringCommitter"));
    }
}
