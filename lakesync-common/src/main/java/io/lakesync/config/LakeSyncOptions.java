package io.lakesync.config;

import static org.apache.fluss.config.ConfigBuilder.key;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.fluss.config.ConfigOption;
import org.apache.fluss.config.Password;

/**
 * Every option of lakesync, declared once with its default and description. The README's configuration
 * reference is this class.
 *
 * <p>Besides these keys, two prefixes pass through: {@value #FLUSS_PREFIX}{@code <key>} sets a Fluss client
 * option (for example {@code fluss.client.security.protocol}) and {@value #LAKE_PREFIX}{@code <key>} sets a
 * Paimon catalog option (for example {@code datalake.paimon.warehouse}), exactly as Fluss servers take them.
 */
public final class LakeSyncOptions {

    /** Prefix of the Fluss client options; the rest of the key is a Fluss {@code ConfigOptions} key. */
    public static final String FLUSS_PREFIX = "fluss.";

    /** Prefix of the Paimon lake catalog options, as on Fluss servers. */
    public static final String LAKE_PREFIX = "datalake.paimon.";

    public static final ConfigOption<String> DATA_DIR =
            key("data.dir")
                    .stringType()
                    .defaultValue("./lakesync-data")
                    .withDescription(
                            "Folder where the local stack keeps ZooKeeper, Fluss and the Paimon warehouse, "
                                    + "and where the service keeps its state.");

    public static final ConfigOption<String> DATALAKE_FORMAT =
            key("datalake.format")
                    .stringType()
                    .defaultValue("paimon")
                    .withDescription("Lake format to tier into. Only 'paimon' is supported.");

    public static final ConfigOption<String> SERVICE_HOST =
            key("service.host")
                    .stringType()
                    .defaultValue("127.0.0.1")
                    .withDescription("Address the HTTP API and /metrics listen on.");

    public static final ConfigOption<Integer> SERVICE_PORT =
            key("service.port")
                    .intType()
                    .defaultValue(8080)
                    .withDescription("Port of the HTTP API and /metrics; 0 picks a free port.");

    public static final ConfigOption<Integer> TIERING_WORKERS =
            key("tiering.workers")
                    .intType()
                    // A round waits on Fluss round trips for more than half its time: on 2 cores, 4 rounds at
                    // once left the CPU idle between them.
                    .defaultValue(6)
                    .withDescription("How many tables one lakesync instance syncs at the same time.");

    public static final ConfigOption<Duration> TIERING_POLL_INTERVAL =
            key("tiering.poll-interval")
                    .durationType()
                    // A table that falls due waits for an idle instance's next question, half of this on
                    // average: with 1 s that was a tenth of the time 200 small tables took to sync. A question
                    // is a heartbeat the coordinator answers from memory.
                    .defaultValue(Duration.ofMillis(200))
                    .withDescription(
                            "How often an idle instance asks the Fluss coordinator for a table to sync. "
                                    + "While tables are handed out it asks again at once.");

    public static final ConfigOption<Integer> TIERING_BUCKET_PARALLELISM =
            key("tiering.bucket-parallelism")
                    .intType()
                    .defaultValue(0)
                    .withDescription(
                            "How many threads read and write the buckets of one table in a round; 0 means "
                                    + "one per core.");

    public static final ConfigOption<Duration> TIERING_IDLE_READ_TIMEOUT =
            key("tiering.idle-read-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "A round whose buckets deliver no record for this long commits what it has; "
                                    + "the next round continues from there.");

    public static final ConfigOption<Duration> TIERING_RETRY_INITIAL_BACKOFF =
            key("tiering.retry.initial-backoff")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(1))
                    .withDescription(
                            "Wait before retrying a table whose round failed; doubles on every further "
                                    + "failure. The table stays with this instance meanwhile.");

    public static final ConfigOption<Duration> TIERING_RETRY_MAX_BACKOFF =
            key("tiering.retry.max-backoff")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(2))
                    .withDescription("Longest wait between retries of a failing table.");

    public static final ConfigOption<Boolean> TIERING_CONTINUOUS =
            key("tiering.continuous")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Keep syncing a busy table in back-to-back rounds, one every half freshness, "
                                    + "instead of handing it back after each round (Fluss would offer it again "
                                    + "only one full freshness later). Only while the coordinator has no other "
                                    + "table waiting and this instance has spare workers; at most "
                                    + "'tiering.continuous-max-hold' per hand-out.");

    public static final ConfigOption<Duration> TIERING_CONTINUOUS_MAX_HOLD =
            key("tiering.continuous-max-hold")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(5))
                    .withDescription("How long one hand-out of a table may be kept in continuous mode.");

    // Columnar speed path

    public static final ConfigOption<Boolean> TIERING_COLUMNAR_READ =
            key("tiering.columnar-read")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Read the Arrow log of log tables, and the Arrow changelog of primary-key tables, batch "
                                    + "by batch, without copying a row per record. Logs in INDEXED format, logs in "
                                    + "remote storage and what the columnar reader cannot decode are read by the row "
                                    + "reader, per bucket.");

    // Columnar write: log tables' Parquet data files written column by column.
    public static final ConfigOption<Boolean> TIERING_COLUMNAR_WRITE =
            key("tiering.columnar-write")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Write the Parquet data files of log tables straight into Parquet's column writers, "
                                    + "with the file statistics and metadata built as the files are written, "
                                    + "instead of through Paimon's row writer. Other file formats, nested "
                                    + "columns and timestamps above precision 6 keep the row writer, per table; "
                                    + "primary-key tables too, unless tiering.columnar-write-primary-key is on.");

    // Columnar write of primary-key tables: level-0 data and changelog files sorted and
    // encoded column by column.
    public static final ConfigOption<Boolean> TIERING_COLUMNAR_WRITE_PRIMARY_KEY =
            key("tiering.columnar-write-primary-key")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "With tiering.columnar-write on, also write the Parquet files of primary-key tables "
                                    + "(merge engine deduplicate, changelog-producer none or input) column by column: "
                                    + "each round's records per bucket are buffered in columns, sorted by key and "
                                    + "encoded as the level-0 data file and the input changelog file Paimon's "
                                    + "merge-tree writer would write. Other primary-key tables keep the row writer.");

    public static final ConfigOption<Boolean> TIERING_WARM_UP =
            key("tiering.warm-up")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "At start-up, before the instance takes tables, run the write path once on made-up rows "
                                    + "in a throw-away warehouse under the data folder (some 300,000 rows through "
                                    + "the writers the settings above choose: six large lake commits, then 64 small "
                                    + "ones, a first and a second into each of 32 tables), then send the Fluss cluster up to 900 read-only "
                                    + "requests a round opens with (table info, lake snapshot, latest offsets) about "
                                    + "its first 64 lake tables, so the first rounds do not pay the JVM's class "
                                    + "loading and compilation. Off by default: it costs more than it saves, since "
                                    + "an instance started without it catches up with its tables sooner and with "
                                    + "less CPU (lakesync-bench, cold runs); a failed warm-up is logged and the "
                                    + "instance starts cold.");

    public static final ConfigOption<Duration> TIERING_BLOCKED_RECHECK_INTERVAL =
            key("tiering.blocked-recheck-interval")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(1))
                    .withDescription(
                            "How often a blocked table (lake schema changed outside Fluss, permission "
                                    + "denied, unsupported option) is checked again to see whether it was fixed.");

    public static final ConfigOption<Duration> STATUS_REFRESH_INTERVAL =
            key("status.refresh-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(5))
                    .withDescription(
                            "How often every table's sync latency, checkpoint and state are re-read from "
                                    + "Fluss and the lake (what the API, metrics and alerts show).");

    public static final ConfigOption<Integer> STATUS_HISTORY_SIZE =
            key("status.history-size")
                    .intType()
                    .defaultValue(720)
                    .withDescription(
                            "Status samples kept per table for charts (720 at the default refresh interval "
                                    + "is one hour).");

    public static final ConfigOption<Duration> STATUS_CALL_TIMEOUT =
            key("status.call-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "Longest a status refresh waits for Fluss or the lake on one call (listing the "
                                    + "tables, observing all tables), and one check of the service's Fluss "
                                    + "connection for servers that moved. A table that could not be observed in "
                                    + "time keeps its last figures, marked stale, with the error as its reason.");

    public static final ConfigOption<Integer> STATUS_UNKNOWN_AFTER_REFRESHES =
            key("status.unknown-after-refreshes")
                    .intType()
                    .defaultValue(3)
                    .withDescription(
                            "A table that could not be observed for this many refresh intervals is shown "
                                    + "UNKNOWN, with the reason (a table last seen UP_TO_DATE or SYNCING at "
                                    + "once). /health reports DEGRADED meanwhile, and the built-in alert rule "
                                    + "'table-status-unknown' fires.");

    public static final ConfigOption<Integer> LOCAL_ZOOKEEPER_PORT =
            key("local.zookeeper.port")
                    .intType()
                    .defaultValue(0)
                    .withDescription("Local stack: ZooKeeper port on 127.0.0.1; 0 picks a free port.");

    public static final ConfigOption<Integer> LOCAL_COORDINATOR_PORT =
            key("local.coordinator.port")
                    .intType()
                    .defaultValue(9123)
                    .withDescription(
                            "Local stack: Fluss coordinator port on 127.0.0.1, the bootstrap address "
                                    + "clients use; 0 picks a free port.");

    /** The most tablet servers {@link #LOCAL_TABLET_SERVERS} takes: each costs the one JVM threads and memory. */
    public static final int LOCAL_MAX_TABLET_SERVERS = 9;

    public static final ConfigOption<Integer> LOCAL_TABLET_SERVERS =
            key("local.tablet-servers")
                    .intType()
                    .defaultValue(1)
                    .withDescription(
                            "Local stack: how many Fluss tablet servers it runs (1 to "
                                    + LOCAL_MAX_TABLET_SERVERS + "), each with its own data folder "
                                    + "data.dir/tablet-server-<i>. Tables get as many replicas as there are tablet "
                                    + "servers, at most 3 (Fluss 'default.replication.factor'), so with 3 a "
                                    + "stopped tablet server's buckets fail over to another leader.");

    public static final ConfigOption<Integer> LOCAL_TABLET_SERVER_PORT =
            key("local.tablet-server.port")
                    .intType()
                    .defaultValue(0)
                    .withDescription(
                            "Local stack: Fluss tablet server port on 127.0.0.1; 0 picks a free port. With "
                                    + "local.tablet-servers > 1, tablet server i listens on this port + i.");

    public static final ConfigOption<String> LOCAL_LAKE =
            key("local.lake")
                    .stringType()
                    .defaultValue("disk")
                    .withDescription(
                            "Local stack: where the Paimon warehouse lives: 'disk' (a folder under data.dir) or "
                                    + "'s3' (s3://lake/warehouse on an S3-compatible server the stack starts on "
                                    + "127.0.0.1, keeping its objects under data.dir/s3).");

    public static final ConfigOption<Integer> LOCAL_S3_PORT =
            key("local.s3.port")
                    .intType()
                    .defaultValue(0)
                    .withDescription(
                            "Local stack with local.lake = s3: the S3 server's port on 127.0.0.1; 0 picks a free "
                                    + "port.");

    public static final ConfigOption<Duration> LOCAL_KV_SNAPSHOT_INTERVAL =
            key("local.kv-snapshot-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "Local stack: how often the tablet server snapshots primary-key tables "
                                    + "(Fluss 'kv.snapshot.interval').");

    public static final ConfigOption<String> STATE_JDBC_URL =
            key("state.jdbc-url")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "JDBC URL of the database holding the service state (alert rules, channels, "
                                    + "alert history, service switch, audit log). Empty means an SQLite "
                                    + "file <data.dir>/lakesync.db for a single instance; give a "
                                    + "jdbc:postgresql://host:port/db URL to run several lakesync "
                                    + "instances on one state.");

    public static final ConfigOption<String> STATE_JDBC_USER =
            key("state.jdbc-user")
                    .stringType()
                    .defaultValue("")
                    .withDescription("User for 'state.jdbc-url'; empty for none (SQLite needs none).");

    public static final ConfigOption<Password> STATE_JDBC_PASSWORD =
            key("state.jdbc-password")
                    .passwordType()
                    .noDefaultValue()
                    .withDescription("Password for 'state.jdbc-user'; never printed.");

    public static final ConfigOption<Duration> STATE_CONNECT_TIMEOUT =
            key("state.connect-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(5))
                    .withDescription(
                            "PostgreSQL state: longest lakesync waits to open a connection (and to be handed one "
                                    + "from its pool) before the call fails. Whole seconds.");

    public static final ConfigOption<Duration> STATE_QUERY_TIMEOUT =
            key("state.query-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "PostgreSQL state: longest lakesync waits for the server to answer on an open "
                                    + "connection (a stopped server or a network partition mid-query) before the "
                                    + "call fails. Whole seconds. Tiering never waits for the state database: what "
                                    + "the engines report is buffered and written in the background.");

    public static final ConfigOption<Password> AUTH_TOKENS =
            key("auth.tokens")
                    .passwordType()
                    .noDefaultValue()
                    .withDescription(
                            "API tokens as comma-separated name:role:token entries, for example "
                                    + "'alice:owner:<token>,ci:operator:<token>,grafana:viewer:<token>'. "
                                    + "Roles: owner (everything, including the cluster switch) > operator "
                                    + "(tables, alerts) > viewer (read only). The name is what the audit "
                                    + "log records; a token has at least 16 characters. Clients send "
                                    + "'Authorization: Bearer <token>'. Without tokens every call that "
                                    + "needs a role is refused.");

    public static final ConfigOption<Boolean> AUTH_ANONYMOUS_READ =
            key("auth.anonymous-read")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Whether read-only API calls are allowed without a token. Off by default: "
                                    + "reads need at least a viewer token.");

    public static final ConfigOption<Duration> ALERT_EVALUATION_INTERVAL =
            key("alert.evaluation-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(15))
                    .withDescription("How often alert rules are evaluated against the table metrics.");

    public static final ConfigOption<Integer> ALERT_WEBHOOK_MAX_ATTEMPTS =
            key("alert.webhook.max-attempts")
                    .intType()
                    .defaultValue(5)
                    .withDescription(
                            "How many times a webhook notification is sent before it is given up, "
                                    + "retrying on connection failures, timeouts, 429 and 5xx answers.");

    public static final ConfigOption<Duration> ALERT_WEBHOOK_INITIAL_BACKOFF =
            key("alert.webhook.initial-backoff")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(1))
                    .withDescription(
                            "Wait before the first webhook retry; it doubles after each further failure "
                                    + "(at most 5 minutes).");

    public static final ConfigOption<Duration> ALERT_WEBHOOK_TIMEOUT =
            key("alert.webhook.timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription("How long one webhook request may take before it counts as failed.");

    // API hardening: who may scrape /metrics.

    public static final ConfigOption<Boolean> METRICS_REQUIRE_TOKEN =
            key("metrics.require-token")
                    .booleanType()
                    // Its labels name every database and table; Prometheus sends a token with 'authorization:
                    // credentials_file' in its scrape config.
                    .defaultValue(true)
                    .withDescription(
                            "Whether GET /metrics needs an API token (any role, or auth.anonymous-read) like every "
                                    + "other read: its labels name every database and table. Prometheus sends one "
                                    + "with 'authorization: {credentials_file: ...}' in its scrape config; set false "
                                    + "only for scrapers that cannot send one.");

    // Several instances (io.lakesync.cluster): membership, the elected instance, the shared switch.

    public static final ConfigOption<String> CLUSTER_INSTANCE_ID =
            key("cluster.instance-id")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "This instance's name in the shared state ('lakesync instances'); empty means the host "
                                    + "name with a random suffix. Two running instances must not share one.");

    public static final ConfigOption<Duration> CLUSTER_HEARTBEAT_INTERVAL =
            key("cluster.heartbeat-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(2))
                    .withDescription(
                            "How often an instance records in the shared state that it is alive, renews or seeks "
                                    + "the leadership of once-per-cluster duties (alert evaluation), and re-reads the "
                                    + "service switch another instance may have turned.");

    public static final ConfigOption<Duration> CLUSTER_INSTANCE_TIMEOUT =
            key("cluster.instance-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "An instance whose last heartbeat is older than this is listed as dead, and its "
                                    + "leadership passes to another instance. Must be at least twice "
                                    + "'cluster.heartbeat-interval'.");

    public static final ConfigOption<Integer> STATUS_REFRESH_PARALLELISM =
            key("status.refresh-parallelism")
                    .intType()
                    .defaultValue(8)
                    .withDescription(
                            "How many reads a status refresh runs at the same time that it cannot batch: when "
                                    + "Paimon committed a new lake snapshot (read once per snapshot), and a table "
                                    + "whose oldest pending record is not in the tablet server's local log (read "
                                    + "with a log scanner). All else of all tables is read together: one log fetch "
                                    + "per tablet server.");
    // --- Lake maintenance (io.lakesync.tiering.maintenance): service defaults; a table overrides any of the
    // 'maintenance.*' ones with the custom property 'lakesync.<key>', e.g. 'lakesync.maintenance.enabled'.

    public static final ConfigOption<Boolean> MAINTENANCE_ENABLED =
            key("maintenance.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Whether lakesync keeps the lake tables it syncs healthy: compacts small files, "
                                    + "expires old snapshots and removes orphan files, off the tiering commit path. "
                                    + "A table overrides it with the property 'lakesync.maintenance.enabled'.");

    public static final ConfigOption<Integer> MAINTENANCE_THREADS =
            key("maintenance.threads")
                    .intType()
                    .defaultValue(1)
                    .withDescription(
                            "Threads that run lake maintenance, shared by all tables of this instance and "
                                    + "separate from the tiering workers, so maintenance never delays a round.");

    public static final ConfigOption<Duration> MAINTENANCE_INTERVAL =
            key("maintenance.interval")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(10))
                    .withDescription(
                            "Least time between two maintenance passes of a table; a pass starts after a round "
                                    + "of the table committed.");

    public static final ConfigOption<Integer> MAINTENANCE_COMPACTION_MIN_FILES =
            key("maintenance.compaction.min-files")
                    .intType()
                    .defaultValue(5)
                    .withDescription(
                            "A bucket with at least this many data files is compacted into as few files as "
                                    + "its target file size allows.");

    public static final ConfigOption<Duration> MAINTENANCE_FULL_COMPACTION_INTERVAL =
            key("maintenance.full-compaction-interval")
                    .durationType()
                    .defaultValue(Duration.ofHours(1))
                    .withDescription(
                            "At least this often, every bucket of a primary-key table with more than one file "
                                    + "or with deleted rows is fully compacted, so deleted and updated rows "
                                    + "physically leave the data files.");

    public static final ConfigOption<Duration> MAINTENANCE_SNAPSHOT_TIME_RETAINED =
            key("maintenance.snapshot.time-retained")
                    .durationType()
                    .defaultValue(Duration.ofHours(1))
                    .withDescription(
                            "Snapshots younger than this are kept (a union read planned on one may still "
                                    + "read its files). The snapshot the Fluss coordinator holds as the table's "
                                    + "lake snapshot, and every newer one, is always kept.");

    public static final ConfigOption<Integer> MAINTENANCE_SNAPSHOT_NUM_RETAINED_MIN =
            key("maintenance.snapshot.num-retained-min")
                    .intType()
                    .defaultValue(10)
                    .withDescription("The newest snapshots kept whatever their age.");

    public static final ConfigOption<Duration> MAINTENANCE_ORPHAN_OLDER_THAN =
            key("maintenance.orphan.older-than")
                    .durationType()
                    .defaultValue(Duration.ofDays(1))
                    .withDescription(
                            "Files in the lake table's folder that no snapshot references (left by aborted "
                                    + "rounds or failed commits) are deleted once older than this; it must be at "
                                    + "least 1 hour and twice the table's freshness, so files a round wrote and has "
                                    + "not committed yet are never taken for orphans.");
    // --- Capacity and metering: compute-unit quotas on concurrent rounds, and what usage is billed how.

    public static final ConfigOption<Integer> QUOTA_CLUSTER_CU =
            key("quota.cluster-cu")
                    .intType()
                    .defaultValue(1000)
                    .withDescription(
                            "Compute units (CUs) the tiering rounds of all instances sharing the state may use "
                                    + "at the same time; a running round uses one CU, metered as at most one "
                                    + "CU-hour per hour. A round beyond the quota waits, with the reason in its "
                                    + "table's status, until a CU frees; waiting tables take turns. Give every "
                                    + "instance the same quotas.");

    public static final ConfigOption<String> QUOTA_DATABASE_CU =
            key("quota.database-cu")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Per-database CU quotas as comma-separated database:CUs entries, for example "
                                    + "'sales:8,logs:2': the rounds of a database's tables use at most that "
                                    + "many CUs at the same time, within 'quota.cluster-cu'. Databases not "
                                    + "named have no quota of their own.");

    public static final ConfigOption<Duration> QUOTA_CLAIM_TIMEOUT =
            key("quota.claim-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(2))
                    .withDescription(
                            "How long claiming or freeing a round's CU in the shared PostgreSQL state may take. "
                                    + "Past it the state counts as unreachable, and until it answers again the "
                                    + "instance runs at most its fair share of each quota: the quota divided by "
                                    + "the live instances as last seen, at least 1 CU.");

    public static final ConfigOption<Duration> QUOTA_CLAIM_RETRY_INTERVAL =
            key("quota.claim-retry-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(1))
                    .withDescription(
                            "How often rounds held back by a quota claim a CU in the shared state again, to "
                                    + "see the CUs other instances freed.");

    public static final ConfigOption<Double> BILLING_PROVISIONED_CU =
            key("billing.provisioned-cu")
                    .doubleType()
                    .defaultValue(0.0)
                    .withDescription(
                            "Provisioned capacity in CUs: each hour, the first provisioned-cu CU-hours the "
                                    + "cluster uses are provisioned usage, the rest pay-as-you-go "
                                    + "(lakesync usage, GET /api/v1/usage).");

    /**
     * Parts of a passthrough key that mark its value as a secret, for example Paimon's {@code jdbc.password},
     * {@code s3.access-key} and {@code s3.secret-key}, Fluss's {@code client.security.sasl.password} and
     * {@code client.security.sasl.jaas.config}.
     */
    private static final List<String> SECRET_KEY_PARTS =
            List.of("password", "secret", "access-key", "accesskey", "access.key", "jaas", "token", "credential");

    private LakeSyncOptions() {}

    /**
     * Whether the value of {@code key} is a secret: one of the {@link Password} options, or a passthrough key
     * named like one. Errors never repeat such a value; give it as {@code @FILE} rather than on a command line.
     */
    public static boolean isSecret(String key) {
        for (ConfigOption<?> option : all()) {
            if (option.key().equals(key)) {
                return option.getClazz() == Password.class;
            }
        }
        String lower = key.toLowerCase(Locale.ROOT);
        return SECRET_KEY_PARTS.stream().anyMatch(lower::contains);
    }

    /**
     * Why {@code value} cannot work for {@code option}, or null if it can. Every duration must be more than zero:
     * a zero interval or backoff would turn a wait into a busy loop.
     */
    static String invalidBecause(ConfigOption<?> option, Object value) {
        if (value instanceof Duration duration && (duration.isZero() || duration.isNegative())) {
            return "a duration must be more than 0, for example 1s";
        }
        if ((option == STATE_CONNECT_TIMEOUT || option == STATE_QUERY_TIMEOUT) && value instanceof Duration duration
                && duration.toMillis() % 1000 != 0) {
            return "the PostgreSQL driver counts whole seconds, for example 5s";
        }
        if (option == STATUS_REFRESH_PARALLELISM && value instanceof Integer count && count < 1) {
            return "at least one table must be observed at a time";
        }
        if (option == LOCAL_TABLET_SERVERS && value instanceof Integer count
                && (count < 1 || count > LOCAL_MAX_TABLET_SERVERS)) {
            return "the local stack runs 1 to " + LOCAL_MAX_TABLET_SERVERS
                    + " tablet servers in its one JVM; use 3 to have leaders fail over";
        }
        return null;
    }

    /** All declared options, in declaration order. */
    public static List<ConfigOption<?>> all() {
        List<ConfigOption<?>> options = new ArrayList<>();
        for (Field field : LakeSyncOptions.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == ConfigOption.class) {
                try {
                    options.add((ConfigOption<?>) field.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return Collections.unmodifiableList(options);
    }
}
