package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.tiering.round.RoundResult;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

/**
 * Continuous mode: a busy table is synced in back-to-back rounds under one hand-out while nothing else
 * waits, and is handed back as soon as another table is waiting, so no table starves.
 */
class ContinuousModeTest extends TieringTestBase {

    private final List<RoundResult> rounds = Collections.synchronizedList(new ArrayList<>());

    @Test
    void busyTableKeepsSyncingUnderOneHandOutAndOthersAreNotStarved() throws Exception {
        int expectedRows;
        TablePath busy = TablePath.of("fluss", "continuous_busy");
        TablePath other = TablePath.of("fluss", "continuous_other");
        createTable(busy, idTable(2, "2s"));
        TieringListener listener = new TieringListener() {
            @Override
            public void roundFinished(RoundResult result) {
                rounds.add(result);
            }
        };
        try (TieringService service = new TieringService(
                serviceConfig("continuous-instance", Map.of("tiering.workers", "1")), listener, RoundHooks.NONE, Clock.systemUTC())) {
            service.start();
            // Written until several commits landed under one hand-out, however slow the machine makes a round.
            Instant deadline = Instant.now().plus(SYNC_TIMEOUT);
            int batches = 0;
            while (!severalCommitsUnderOneHandOut()) {
                assertThat(Instant.now()).as("several commits under one hand-out: %s", rounds).isBefore(deadline);
                append(busy, ids(batches * 500L, (batches + 1) * 500L));
                batches++;
                Thread.sleep(500); // pacing the writer, not synchronisation
            }
            awaitTiered(busy);

            createTable(other, idTable(2, "2s"));
            append(other, ids(0, 100));
            for (int more = 0; more < 6; more++, batches++) {
                append(busy, ids(batches * 500L, (batches + 1) * 500L));
                Thread.sleep(300); // pacing the writer, not synchronisation
            }
            awaitTiered(other);
            awaitTiered(busy);
            expectedRows = batches * 500;
        }
        List<List<Object>> lakeRows = readLake(busy, "id");
        assertThat(lakeRows).hasSize(expectedRows);
        assertThat(lakeRows.stream().map(r -> r.get(0)).distinct().count()).isEqualTo(expectedRows);
        assertThat(readLake(other, "id")).hasSize(100);
    }

    private boolean severalCommitsUnderOneHandOut() {
        synchronized (rounds) {
            List<Long> epochsOfCommits =
                    rounds.stream().filter(RoundResult::committed).map(r -> r.assignment().tieringEpoch()).toList();
            return epochsOfCommits.stream().distinct().count() < epochsOfCommits.size();
        }
    }
}
