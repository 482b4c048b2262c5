package io.lakesync.tiering.capacity;

import java.util.HashMap;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;

/**
 * The claims of one instance alone, in memory: what a single instance on the embedded state uses, where its own
 * rounds are all the rounds there are.
 */
public final class LocalClaimLedger implements ClaimLedger {

    private final Map<Long, String> databaseOfClaim = new HashMap<>();
    private final Map<String, Integer> claimedPerDatabase = new HashMap<>();
    private long lastClaimId;

    @Override
    public synchronized Answer claim(TablePath table, CapacityQuotas quotas) {
        String database = table.getDatabaseName();
        int inDatabase = claimedPerDatabase.getOrDefault(database, 0);
        Refused refused = quotas.refusal(database, databaseOfClaim.size(), inDatabase);
        if (refused != null) {
            return refused;
        }
        databaseOfClaim.put(++lastClaimId, database);
        claimedPerDatabase.put(database, inDatabase + 1);
        return new Granted(lastClaimId);
    }

    @Override
    public synchronized void release(long claimId) {
        String database = databaseOfClaim.remove(claimId);
        if (database != null) {
            claimedPerDatabase.merge(database, -1, Integer::sum);
        }
    }

    @Override
    public int liveInstances() {
        return 1;
    }

    @Override
    public boolean answersAtOnce() {
        return true;
    }
}
