package io.lakesync.sql;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

/**
 * A Flink SQL session with Fluss's catalog registered for one cluster and in use (its database {@code fluss}
 * current when it exists), in batch or streaming mode. {@code SET 'execution.runtime-mode' = '...'} switches the
 * mode: Flink fixes a table environment's mode when it is created, so the session starts a new one in the same
 * catalog and database.
 */
public final class SqlSession {

    private static final Pattern SET_MODE = Pattern.compile(
            "SET\\s+'execution\\.runtime-mode'\\s*=\\s*'(batch|streaming)'", Pattern.CASE_INSENSITIVE);
    private static final Pattern INSERT = Pattern.compile("\\s*(INSERT|EXECUTE)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final String DEFAULT_DATABASE = "fluss";

    private final String catalog;
    private final String bootstrapServers;
    private final long maxRows;
    private boolean streaming;
    private TableEnvironment tableEnv;

    SqlSession(String catalog, String bootstrapServers, boolean streaming, long maxRows) {
        this.catalog = catalog;
        this.bootstrapServers = bootstrapServers;
        this.maxRows = maxRows;
        this.streaming = streaming;
        this.tableEnv = open(null);
    }

    /** Runs one statement and prints its result. */
    void execute(String statement, PrintWriter out) throws Exception {
        Matcher setMode = SET_MODE.matcher(statement.strip());
        if (setMode.matches()) {
            streaming = setMode.group(1).toLowerCase(Locale.ROOT).equals("streaming");
            tableEnv = open(tableEnv.getCurrentDatabase());
            out.println("OK, " + (streaming ? "streaming" : "batch") + " mode");
            return;
        }
        TableResult result = tableEnv.executeSql(statement);
        if (INSERT.matcher(statement).lookingAt()) {
            // Flink runs an INSERT as a job and answers at once; the statement is done when the job is.
            result.await();
            out.println("OK");
            return;
        }
        new ResultPrinter(out).print(result, streaming, maxRows);
    }

    private TableEnvironment open(String database) {
        EnvironmentSettings.Builder settings = EnvironmentSettings.newInstance().withConfiguration(loopbackConfig());
        TableEnvironment env = TableEnvironment.create(
                (streaming ? settings.inStreamingMode() : settings.inBatchMode()).build());
        env.executeSql("CREATE CATALOG `" + catalog + "` WITH ('type' = 'fluss', 'bootstrap.servers' = '"
                + bootstrapServers.replace("'", "''") + "')");
        env.useCatalog(catalog);
        if (database != null) {
            env.useDatabase(database);
        } else if (env.getCatalog(catalog).orElseThrow().databaseExists(DEFAULT_DATABASE)) {
            env.useDatabase(DEFAULT_DATABASE);
        }
        return env;
    }

    /** Flink's local cluster on loopback only: no port of it is reachable from elsewhere. */
    public static Configuration loopbackConfig() {
        Configuration conf = new Configuration();
        conf.setString("rest.bind-address", "127.0.0.1");
        conf.setString("rest.address", "127.0.0.1");
        conf.setString("rest.bind-port", "0");
        conf.setString("blob.server.port", "0");
        conf.setString("jobmanager.bind-host", "127.0.0.1");
        conf.setString("jobmanager.rpc.address", "127.0.0.1");
        conf.setString("taskmanager.bind-host", "127.0.0.1");
        conf.setString("taskmanager.host", "127.0.0.1");
        return conf;
    }
}
