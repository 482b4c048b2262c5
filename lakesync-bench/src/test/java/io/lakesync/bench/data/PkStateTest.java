package io.lakesync.bench.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;

class PkStateTest {

    private static final long SEED = 3;

    @Test
    void changelogFollowsFlussUpsertSemantics() throws Exception {
        PkState state = new PkState(SEED);
        List<String> log = new ArrayList<>();
        PkState.ChangelogSink sink = (kind, row) -> log.add(kind.shortString() + row.id() + "@" + row.userId());
        BenchRecord v0 = BenchRecord.generate(SEED, 1, 0);
        BenchRecord v1 = BenchRecord.generate(SEED, 1, 1);

        state.apply(new PkOps.Op(false, 0, v0), sink);
        state.apply(new PkOps.Op(false, 1, v1), sink);
        state.apply(new PkOps.Op(true, 2, BenchRecord.generate(SEED, 1, 2)), sink);
        state.apply(new PkOps.Op(true, 3, BenchRecord.generate(SEED, 2, 3)), sink);

        assertThat(log).containsExactly(
                "+I1@" + v0.userId(), "-U1@" + v0.userId(), "+U1@" + v1.userId(), "-D1@" + v1.userId());
        assertThat(state.liveKeys()).isZero();
    }

    @Test
    void snapshotHoldsEveryLiveKeyAtItsLatestVersion() throws Exception {
        PkState state = new PkState(SEED);
        state.apply(new PkOps.Op(false, 0, BenchRecord.generate(SEED, 0, 0)));
        state.apply(new PkOps.Op(false, 1, BenchRecord.generate(SEED, 1, 1)));
        state.apply(new PkOps.Op(false, 2, BenchRecord.generate(SEED, 0, 2)));
        List<BenchRecord> snapshot = new ArrayList<>();
        state.forEachLive((kind, row) -> {
            assertThat(kind).isEqualTo(RowKind.INSERT);
            snapshot.add(row);
        });
        assertThat(snapshot).containsExactly(BenchRecord.generate(SEED, 0, 2), BenchRecord.generate(SEED, 1, 1));
    }

    @Test
    void operationStreamIsDeterministicWithTheAdvertisedMix() {
        PkOps first = new PkOps(SEED);
        PkOps second = new PkOps(SEED);
        int deletes = 0;
        long newKeys = 0;
        long maxKey = -1;
        for (int i = 0; i < 100_000; i++) {
            PkOps.Op op = first.next();
            assertThat(second.next()).isEqualTo(op);
            deletes += op.delete() ? 1 : 0;
            if (op.row().id() > maxKey) {
                maxKey = op.row().id();
                newKeys++;
            }
        }
        assertThat(newKeys).isBetween(74_000L, 76_000L);
        assertThat(deletes).isBetween(4_500, 5_500);
    }

    @Test
    void specSurvivesTheTripToAChildProcess() {
        DataSpec spec = DataSpec.primaryKey(1000, 9, 8, 0.8);
        assertThat(DataSpec.fromArgs(spec.toArgs())).isEqualTo(spec);
        assertThat(spec.baseRows()).isEqualTo(800);
        assertThat(DataSpec.log(1000, 9, 8).baseRows()).isEqualTo(1000);
    }
}
