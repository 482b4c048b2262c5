package io.lakesync.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.state.PostgresServer;
import io.lakesync.state.StateStore;
import io.lakesync.tiering.TieringListener;
import io.lakesync.tiering.TieringService;
import io.lakesync.tiering.TieringTestBase;
import io.lakesync.tiering.round.RoundHooks;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two real tiering engines on one Fluss cluster, each claiming its rounds' CUs in the same PostgreSQL state with
 * a cluster quota of 2 CUs, tier four busy tables: every table reaches the lake, both engines ran rounds, and
 * never were more than 2 CUs claimed at once. The peak is recorded by the database itself, with every claim.
 */
class SharedQuotaEnginesTest extends TieringTestBase {

    private static final int QUOTA = 2;

    @RegisterExtension
    static PostgresServer postgres = new PostgresServer();

    @Test
    void twoEnginesSharingTheStateNeverClaimMoreThanTheClusterQuota() throws Exception {
        List<TablePath> tables = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            TablePath path = TablePath.of("fluss", "shared_quota_" + i);
            createTable(path, idTable(2, "1s"));
            append(path, ids(0, 20_000));
            tables.add(path);
        }
        String database = postgres.newDatabase();
        try (StateStore store = postgres.open(database, Clock.systemUTC())) {
            recordClaimPeaks(store);
            try (StateStore storeA = postgres.open(database, Clock.systemUTC());
                    StateStore storeB = postgres.open(database, Clock.systemUTC());
                    // The instances do not beat here: an hour's timeout keeps their claims alive throughout.
                    SharedClaimLedger ledgerA = new SharedClaimLedger(storeA, "a", Duration.ofHours(1), Duration.ofSeconds(10),
                            Duration.ofSeconds(1));
                    SharedClaimLedger ledgerB = new SharedClaimLedger(storeB, "b", Duration.ofHours(1), Duration.ofSeconds(10),
                            Duration.ofSeconds(1));
                    TieringService a = engine("quota-a", ledgerA);
                    TieringService b = engine("quota-b", ledgerB)) {
                for (TablePath path : tables) {
                    awaitTiered(path);
                }
            }
            Map<String, Integer> peaks = new TreeMap<>();
            store.read(sql -> sql.query("SELECT instance_id, MAX(claims) AS peak FROM claim_peak GROUP BY instance_id",
                    row -> peaks.put(row.getString("instance_id"), row.getInt("peak"))));
            assertThat(peaks).as("claims at each claim, by the instance that claimed").containsOnlyKeys("a", "b");
            assertThat(peaks.values()).as("CUs claimed at once, at most").allSatisfy(peak ->
                    assertThat(peak).isLessThanOrEqualTo(QUOTA));
            assertThat(peaks.values().stream().mapToInt(Integer::intValue).max().orElse(0))
                    .as("the quota was used in full").isEqualTo(QUOTA);
            int left = store.read(sql -> sql.queryFirst("SELECT COUNT(*) FROM compute_unit_claim", row -> row.getInt(1)))
                    .orElseThrow();
            assertThat(left).as("stopped engines hold no claim").isZero();
        }
    }

    /** Each engine takes at most two tables, so both get some of the four. */
    private static TieringService engine(String instance, SharedClaimLedger ledger) throws Exception {
        TieringService engine = new TieringService(
                serviceConfig(instance, Map.of("quota.cluster-cu", String.valueOf(QUOTA), "tiering.workers", "2",
                        "quota.claim-retry-interval", "100ms")),
                TieringListener.NONE, RoundHooks.NONE, Clock.systemUTC(), ledger);
        engine.start();
        return engine;
    }

    /** With every claim inserted, the database records how many claims there are then, in the same transaction. */
    private static void recordClaimPeaks(StateStore store) {
        store.write(sql -> {
            sql.update("CREATE TABLE claim_peak (claims INTEGER NOT NULL, instance_id VARCHAR(128) NOT NULL)");
            sql.update("CREATE FUNCTION record_claim_peak() RETURNS trigger AS $$ BEGIN "
                    + "INSERT INTO claim_peak SELECT COUNT(*), NEW.instance_id FROM compute_unit_claim; RETURN NULL; "
                    + "END $$ LANGUAGE plpgsql");
            return sql.update("CREATE TRIGGER claim_peak AFTER INSERT ON compute_unit_claim FOR EACH ROW "
                    + "EXECUTE FUNCTION record_claim_peak()");
        });
    }
}
