package io.lakesync.bench.contender;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.flink.tiering.LakeTieringJobBuilder;
import org.apache.fluss.flink.tiering.source.TieringSourceOptions;

/**
 * Contender A: Fluss's own tiering job, built by {@link LakeTieringJobBuilder} exactly as Fluss's tiering
 * entry point builds it, on a local Flink MiniCluster in this process.
 */
final class FlinkTieringEngine implements TieringEngine {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final String bootstrapServers;
    private final Map<String, String> lakeOptions;
    private final Duration pollInterval;
    private final int parallelism;
    private JobClient job;

    /** {@code pollInterval} null keeps the job's default table poll interval. */
    FlinkTieringEngine(
            String bootstrapServers, Map<String, String> lakeOptions, Duration pollInterval, int parallelism) {
        this.bootstrapServers = bootstrapServers;
        this.lakeOptions = lakeOptions;
        this.pollInterval = pollInterval;
        this.parallelism = parallelism;
    }

    @Override
    public void start() throws Exception {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironment(
                        parallelism, org.apache.flink.configuration.Configuration.fromMap(localClusterOptions()));
        Configuration flussConf = new Configuration();
        flussConf.setString("bootstrap.servers", bootstrapServers);
        if (pollInterval != null) {
            flussConf.set(TieringSourceOptions.POLL_TIERING_TABLE_INTERVAL, pollInterval);
        }
        job = LakeTieringJobBuilder.newBuilder(
                        env, flussConf, Configuration.fromMap(lakeOptions), new Configuration(), "paimon")
                .build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        JobStatus status = job.getJobStatus().get();
        while (status != JobStatus.RUNNING) {
            if (status.isTerminalState() || System.nanoTime() > deadline) {
                throw new IllegalStateException("Flink tiering job did not reach RUNNING: " + status);
            }
            Thread.sleep(20);
            status = job.getJobStatus().get();
        }
    }

    /** Local cluster bound to 127.0.0.1 on free ports, failing for good like Fluss's entry point configures. */
    private static Map<String, String> localClusterOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        for (String key : new String[] {
            "rest.address", "rest.bind-address", "jobmanager.rpc.address", "jobmanager.bind-host",
            "taskmanager.host", "taskmanager.bind-host"
        }) {
            options.put(key, "127.0.0.1");
        }
        options.put("rest.bind-port", "0");
        options.put("blob.server.port", "0");
        options.put("jobmanager.execution.failover-strategy", "full");
        options.put("security.delegation.tokens.enabled", "false");
        return options;
    }

    @Override
    public Optional<String> failure() {
        if (job == null) {
            return Optional.empty();
        }
        try {
            JobStatus status = job.getJobStatus().get(5, TimeUnit.SECONDS);
            if (!status.isGloballyTerminalState()) {
                return Optional.empty();
            }
            try {
                job.getJobExecutionResult().get(5, TimeUnit.SECONDS);
                return Optional.of("Flink tiering job ended: " + status);
            } catch (Exception e) {
                return Optional.of("Flink tiering job " + status + ": " + rootMessage(e));
            }
        } catch (Exception e) {
            // The mini cluster is gone: the job cannot be running any more.
            return Optional.of("Flink tiering job unreachable: " + rootMessage(e));
        }
    }

    @Override
    public void close() throws Exception {
        if (job != null) {
            job.cancel().get(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    static String rootMessage(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
}
