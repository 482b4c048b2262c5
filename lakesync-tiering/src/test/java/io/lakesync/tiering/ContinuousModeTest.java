package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.round.RoundHooks;
import io.lakesync.tiering.round.RoundResult;
import java.time.Clock;
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
            for (int batch = 0; batch < 8; batch++) {
                append(busy, ids(batch * 500L, (batch + 1) * 500L));
                Thread.sleep(500); // pacing the writer, not synchronisation
            }
            awaitTiered(busy);
            List<Long> epochsOfCommits = new ArrayList<>();
            synchronized (rounds) {
                rounds.stream().filter(RoundResult::committed).forEach(r -> epochsOfCommits.add(r.assignment().tieringEpoch()));
            }
            assertThat(epochsOfCommits.stream().distinct().count())
                    .as("several commits under one hand-out: %s", epochsOfCommits)
                    .isLessThan(epochsOfCommits.size());

            createTable(other, idTable(2, "2s"));
            append(other, ids(0, 100));
            for (int batch = 8; batch < 14; batch++) {
                append(busy, ids(batch * 500L, (batch + 1) * 500L));
                Thread.sleep(300); // pacing the writer, not synchronisation
            }
            awaitTiered(other);
            awaitTiered(busy);
        }
        List<List<Object>> lakeRows = readLake(busy, "id");
        assertThat(lakeRows).hasSize(14 * 500);
        assertThat(lakeRows.stream().map(r -> r.get(0)).distinct().count()).isEqualTo(14 * 500);
        assertThat(readLake(other, "id")).hasSize(100);
    }
}
