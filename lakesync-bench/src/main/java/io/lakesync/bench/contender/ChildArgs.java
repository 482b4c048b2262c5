package io.lakesync.bench.contender;

import io.lakesync.bench.cluster.BenchCluster;
import io.lakesync.config.LakeSyncOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.metadata.TablePath;

/** The {@code key=value} arguments the driver hands a contender child process. */
public final class ChildArgs {

    public static final String CONTENDER = "contender";
    public static final String BOOTSTRAP = LakeSyncOptions.FLUSS_PREFIX + "bootstrap.servers";
    public static final String WORK_DIR = "work.dir";
    public static final String TABLES = "tables";
    /** {@code true}: lakesync reports every round stage it passes ({@link ChildProtocol.Type#STAGE}). */
    public static final String REPORT_STAGES = "report.stages";
    /**
     * Prefix of a bound's warm-up: {@code warm-up.tables=...}, {@code warm-up.spec.rows=...} replace the unprefixed
     * arguments for a first run of the same bound, before the timed one.
     */
    public static final String WARM_UP_PREFIX = "warm-up.";

    private final Map<String, String> values;

    public ChildArgs(Map<String, String> values) {
        this.values = values;
    }

    /** The arguments every child needs: who it is, where the cluster and the lake are, its work folder. */
    public static ChildArgs forContender(BenchCluster cluster, Contender contender, Path workDir) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put(CONTENDER, contender.label());
        values.put(BOOTSTRAP, cluster.bootstrapServers());
        cluster.lakeCatalogOptions().forEach((k, v) -> values.put(LakeSyncOptions.LAKE_PREFIX + k, v));
        values.put(WORK_DIR, workDir.toString());
        return new ChildArgs(values);
    }

    public static ChildArgs parse(String[] args) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("Contender argument '" + arg + "' is not key=value.");
            }
            values.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        return new ChildArgs(values);
    }

    public List<String> toList() {
        List<String> list = new ArrayList<>();
        values.forEach((k, v) -> list.add(k + "=" + v));
        return list;
    }

    public Map<String, String> values() {
        return values;
    }

    public String require(String key) {
        String value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException("Contender argument '" + key + "' is missing.");
        }
        return value;
    }

    /** Paimon catalog options, prefix stripped. */
    public Map<String, String> lakeOptions() {
        Map<String, String> lake = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (k.startsWith(LakeSyncOptions.LAKE_PREFIX)) {
                lake.put(k.substring(LakeSyncOptions.LAKE_PREFIX.length()), v);
            }
        });
        return lake;
    }

    /** Adds a warm-up: the bound runs first over {@code tables}, with {@code arguments} (e.g. a data spec). */
    public void putWarmUp(List<TablePath> tables, Map<String, String> arguments) {
        values.put(WARM_UP_PREFIX + TABLES, tableList(tables));
        arguments.forEach((k, v) -> values.put(WARM_UP_PREFIX + k, v));
    }

    /** The arguments of the warm-up run, if there is one: these, with the warm-up's values in place. */
    public Optional<ChildArgs> warmUp() {
        if (!values.containsKey(WARM_UP_PREFIX + TABLES)) {
            return Optional.empty();
        }
        Map<String, String> warmUp = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (!k.startsWith(WARM_UP_PREFIX)) {
                warmUp.put(k, v);
            }
        });
        values.forEach((k, v) -> {
            if (k.startsWith(WARM_UP_PREFIX)) {
                warmUp.put(k.substring(WARM_UP_PREFIX.length()), v);
            }
        });
        return Optional.of(new ChildArgs(warmUp));
    }

    public static String tableList(List<TablePath> tables) {
        return String.join(",", tables.stream().map(TablePath::toString).toList());
    }

    public List<TablePath> tables() {
        return Arrays.stream(require(TABLES).split(",")).map(ChildArgs::tablePath).toList();
    }

    public static TablePath tablePath(String qualified) {
        int dot = qualified.indexOf('.');
        return TablePath.of(qualified.substring(0, dot), qualified.substring(dot + 1));
    }
}
