package io.lakesync.compat;

import io.lakesync.local.LocalFlussCluster;
import io.lakesync.sql.SqlSession;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
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
        MiniCluster flink = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(loopbackConfig())
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(2)
                .build());
        flink.start();
        return flink;
    }

    /**
     * Submits Fluss's tiering job through the REST endpoint as Fluss's entry point would, its arguments
     * ({@code fluss.bootstrap.servers}, {@code datalake.format}, {@code datalake.paimon.*}) visible as the job's
     * parameters.
     */
    static JobClient submitFlussTieringJob(URI restAddress, LocalFlussCluster cluster) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createRemoteEnvironment(
                restAddress.getHost(), restAddress.getPort(), loopbackConfig());
        env.setParallelism(2);
        Map<String, String> arguments = new LinkedHashMap<>();
        arguments.put("fluss.bootstrap.servers", cluster.bootstrapServers());
        arguments.put("datalake.format", "paimon");
        cluster.lakeCatalogOptions().forEach((k, v) -> arguments.put("datalake.paimon." + k, v));
        env.getConfig().setGlobalJobParameters(Configuration.fromMap(arguments));
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
