package io.lakesync.tiering.capacity;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.annotation.Nullable;

/**
 * How many compute units the rounds of the cluster, and of each database with a quota of its own, may use at
 * the same time, counted over every instance sharing the state (see {@link ClaimLedger}). A running round
 * occupies one CU, which the usage meter counts as at most one CU-hour per hour of the round (see
 * {@link ComputeUnit}); a table waiting or blocked between rounds occupies none.
 *
 * @param clusterCu the cap on all rounds together ({@code quota.cluster-cu})
 * @param databaseCu caps of single databases ({@code quota.database-cu}); databases not named have none
 */
public record CapacityQuotas(int clusterCu, Map<String, Integer> databaseCu) {

    public CapacityQuotas {
        databaseCu = Map.copyOf(databaseCu);
    }

    /** No cap a test or a single instance would ever reach. */
    public static CapacityQuotas unlimited() {
        return new CapacityQuotas(Integer.MAX_VALUE, Map.of());
    }

    /** Reads and checks both quota options; a bad entry fails naming the option and what a good one looks like. */
    public static CapacityQuotas of(LakeSyncConfig config) {
        int cluster = config.get(LakeSyncOptions.QUOTA_CLUSTER_CU);
        if (cluster < 1) {
            throw new IllegalArgumentException("Config key '" + LakeSyncOptions.QUOTA_CLUSTER_CU.key()
                    + "' must be at least 1 CU, but is " + cluster + ".");
        }
        return new CapacityQuotas(cluster, parseDatabaseQuotas(config.get(LakeSyncOptions.QUOTA_DATABASE_CU)));
    }

    /**
     * Why a round of a table in {@code database} may not start while {@code clusterInUse} CUs of the cluster and
     * {@code databaseInUse} of the database are in use, or null if it may: the cluster's quota is checked first.
     */
    @Nullable
    public ClaimLedger.Refused refusal(String database, int clusterInUse, int databaseInUse) {
        if (clusterInUse >= clusterCu) {
            return new ClaimLedger.Refused(false, "Held back by the cluster quota: " + clusterInUse + " of " + clusterCu
                    + " CUs in use (" + LakeSyncOptions.QUOTA_CLUSTER_CU.key() + "); the round starts when one frees.");
        }
        Integer databaseQuota = databaseCu.get(database);
        if (databaseQuota != null && databaseInUse >= databaseQuota) {
            return new ClaimLedger.Refused(true, "Held back by the quota of database '" + database + "': "
                    + databaseInUse + " of " + databaseQuota + " CUs in use (" + LakeSyncOptions.QUOTA_DATABASE_CU.key()
                    + "); its tables take turns.");
        }
        return null;
    }

    /**
     * One instance's fair share of these quotas among {@code instances}: each quota divided by them, rounded
     * down, at least 1 CU.
     */
    public CapacityQuotas fairShare(int instances) {
        int among = Math.max(1, instances);
        return new CapacityQuotas(share(clusterCu, among), databaseCu.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> share(e.getValue(), among))));
    }

    private static int share(int quota, int instances) {
        return Math.max(1, quota / instances);
    }

    static Map<String, Integer> parseDatabaseQuotas(String value) {
        Map<String, Integer> quotas = new TreeMap<>();
        for (String entry : value.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            String[] parts = entry.trim().split(":");
            Integer cu = parts.length == 2 && !parts[0].isBlank() ? positiveInt(parts[1].trim()) : null;
            if (cu == null) {
                throw new IllegalArgumentException("Config key '" + LakeSyncOptions.QUOTA_DATABASE_CU.key()
                        + "' has the entry '" + entry.trim() + "'; each entry must be database:CUs with at least "
                        + "1 CU, for example 'sales:8,logs:2'.");
            }
            if (quotas.put(parts[0].trim(), cu) != null) {
                throw new IllegalArgumentException("Config key '" + LakeSyncOptions.QUOTA_DATABASE_CU.key()
                        + "' names database '" + parts[0].trim() + "' twice.");
            }
        }
        return quotas;
    }

    private static Integer positiveInt(String text) {
        try {
            int value = Integer.parseInt(text);
            return value >= 1 ? value : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
