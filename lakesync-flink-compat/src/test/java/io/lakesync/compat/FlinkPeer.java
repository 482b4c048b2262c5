package io.lakesync.compat;

import io.lakesync.local.LocalFlussCluster;
import io.lakesync.sql.SqlSession;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import org.apache.flink.client.deployment.application.ApplicationConfiguration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.fluss.flink.tiering.LakeTieringJobBuilder;

/** Flink 1.20 as lakesync's peer in tests: Fluss's own tiering job and Flink SQL reads, on loopback only. */
final class FlinkPeer {

    private FlinkPeer() {}

    static Configuration loopbackConfig() {
        return SqlSession.loopbackConfig();
    }

    /**
     * Starts Fluss's Flink tiering job against the cluster on a Flink cluster of its own; closing the handle stops
     * both.
     */
    static TieringJob startFlussTieringJob(LocalFlussCluster cluster) throws Exception {
        MiniCluster flink = startRestCluster();
        try {
            return new TieringJob(flink, submitFlussTieringJob(flink.getRestAddress().get(), cluster));
        } catch (Exception | Error e) {
            flink.close();
            throw e;
        }
    }

    /**
     * Fluss's tiering job on its own Flink cluster. Closing cancels the job and waits until that cluster has shut
     * down: the job's source enumerator asks the coordinator for tables until it is closed, and Fluss 0.9.1 loses a
     * table handed to it while it closes until the coordinator's 2-minute tiering timeout, so a table created
     * right after a mere cancel could sit out the next test.
     */
    static final class TieringJob implements AutoCloseable {
        private final MiniCluster flink;
        private final JobClient job;

        private TieringJob(MiniCluster flink, JobClient job) {
            this.flink = flink;
            this.job = job;
        }

        @Override
        public void close() throws Exception {
            try {
                job.cancel().get(60, TimeUnit.SECONDS);
            } finally {
                flink.close();
            }
        }
    }

    /** A Flink cluster with its REST endpoint on a free loopback port ({@code getRestAddress()}). */
    static MiniCluster startRestCluster() throws Exception {
        return startRestCluster(loopbackConfig());
    }

    private static MiniCluster startRestCluster(Configuration config) throws Exception {
        MiniCluster flink = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(config)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(2)
                .build());
        flink.start();
        return flink;
    }

    /**
     * Submits Fluss's tiering job to a session cluster as {@code flink run -Dpipeline.global-job-parameters=...}
     * submits Fluss's entry point: its arguments ({@code fluss.bootstrap.servers}, {@code datalake.format},
     * {@code datalake.paimon.*}) given once more as that option, a YAML map, become the job's global job parameters,
     * which Flink shows (the program arguments it does not keep in a session cluster).
     */
    static JobClient submitFlussTieringJob(URI restAddress, LocalFlussCluster cluster) throws Exception {
        return buildTieringJob(remoteEnvironment(restAddress, flinkRunConfig(cluster)), cluster);
    }

    /** The client configuration of {@code flink run -Dpipeline.global-job-parameters=...} for this cluster. */
    static Configuration flinkRunConfig(LocalFlussCluster cluster) {
        Configuration config = loopbackConfig();
        config.setString(PipelineOptions.GLOBAL_JOB_PARAMETERS.key(), yamlMap(tieringArguments(cluster)));
        return config;
    }

    /** {@code {'a': 'x', 'b': 'y'}}: a map as a command line gives it in Flink's YAML configuration syntax. */
    private static String yamlMap(Map<String, String> entries) {
        StringJoiner map = new StringJoiner(", ", "{", "}");
        entries.forEach((key, value) -> map.add(quoted(key) + ": " + quoted(value)));
        return map.toString();
    }

    private static String quoted(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    /**
     * A Flink cluster of its own for Fluss's tiering job, as Fluss's entry point ({@code fluss-flink-tiering},
     * {@code FlussLakeTieringEntrypoint}) runs it in application mode: its arguments are the cluster's program
     * arguments (which is all Flink shows of them), the job has no global job parameters, and the cluster shuts
     * down, REST endpoint included, when the job ends.
     */
    static JobCluster startApplicationCluster(LocalFlussCluster cluster) throws Exception {
        List<String> programArguments = new ArrayList<>();
        tieringArguments(cluster).forEach((key, value) -> programArguments.addAll(List.of("--" + key, value)));
        Configuration config = loopbackConfig();
        config.set(ApplicationConfiguration.APPLICATION_ARGS, programArguments);
        config.set(ApplicationConfiguration.APPLICATION_MAIN_CLASS,
                "org.apache.fluss.flink.tiering.FlussLakeTieringEntrypoint");
        MiniCluster flink = startRestCluster(config);
        try {
            URI url = flink.getRestAddress().get();
            JobClient job = buildTieringJob(remoteEnvironment(url, loopbackConfig()), cluster);
            flink.requestJobResult(job.getJobID()).whenComplete((result, failure) -> flink.closeAsync());
            return new JobCluster(flink, url, job);
        } catch (Exception | Error e) {
            flink.close();
            throw e;
        }
    }

    /** A job cluster: closing shuts it down if its job has not ended yet. */
    record JobCluster(MiniCluster flink, URI url, JobClient job) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            flink.closeAsync().get(60, TimeUnit.SECONDS);
        }
    }

    /** The entry point's arguments without their dashes: Fluss client, lake format and lake catalog options. */
    private static Map<String, String> tieringArguments(LocalFlussCluster cluster) {
        Map<String, String> arguments = new LinkedHashMap<>();
        arguments.put("fluss.bootstrap.servers", cluster.bootstrapServers());
        arguments.put("fluss.tiering.poll.table.interval", "500 ms");
        arguments.put("datalake.format", "paimon");
        cluster.lakeCatalogOptions().forEach((k, v) -> arguments.put("datalake.paimon." + k, v));
        return arguments;
    }

    private static StreamExecutionEnvironment remoteEnvironment(URI restAddress, Configuration config) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createRemoteEnvironment(
                restAddress.getHost(), restAddress.getPort(), config);
        env.setParallelism(2);
        return env;
    }

    /** Builds and submits the job with Fluss's own builder, as the entry point does with its arguments. */
    private static JobClient buildTieringJob(StreamExecutionEnvironment env, LocalFlussCluster cluster)
            throws Exception {
        org.apache.fluss.config.Configuration flussConf = cluster.clientConfiguration();
        flussConf.setString("tiering.poll.table.interval", "500 ms");
        return LakeTieringJobBuilder.newBuilder(env, flussConf,
                        org.apache.fluss.config.Configuration.fromMap(cluster.lakeCatalogOptions()),
                        new org.apache.fluss.config.Configuration(), "paimon")
                .build();
    }

    /** A batch Flink SQL environment with the cluster registered as catalog {@code fluss_catalog}. */
    static TableEnvironment batchSql(LocalFlussCluster cluster) {
        TableEnvironment tEnv =
                TableEnvironment.create(
                        EnvironmentSettings.newInstance().inBatchMode().withConfiguration(loopbackConfig()).build());
        tEnv.executeSql(
                "CREATE CATALOG fluss_catalog WITH ('type' = 'fluss', 'bootstrap.servers' = '"
                        + cluster.bootstrapServers() + "')");
        return tEnv;
    }
}
