package io.lakesync.bench.data;

import java.util.Arrays;
import java.util.BitSet;
import org.apache.paimon.types.RowKind;

/**
 * The table state an operation stream of {@link PkOps} leaves behind, and the changelog Fluss derives from it:
 * an insert of a new key is +I, an upsert of a live key is -U old / +U new, a delete of a live key is -D old, a
 * delete of a missing key is nothing.
 */
public final class PkState {

    /** Receives changelog records. */
    @FunctionalInterface
    public interface ChangelogSink {
        void accept(RowKind kind, BenchRecord row) throws Exception;
    }

    private static final ChangelogSink DISCARD = (kind, row) -> {};

    private final long seed;
    private final BitSet live = new BitSet();
    private long[] version = new long[1024];

    public PkState(long seed) {
        this.seed = seed;
    }

    public void apply(PkOps.Op op) throws Exception {
        apply(op, DISCARD);
    }

    public void apply(PkOps.Op op, ChangelogSink changelog) throws Exception {
        int key = Math.toIntExact(op.row().id());
        boolean wasLive = live.get(key);
        if (op.delete()) {
            if (wasLive) {
                changelog.accept(RowKind.DELETE, current(key));
                live.clear(key);
            }
            return;
        }
        if (wasLive) {
            changelog.accept(RowKind.UPDATE_BEFORE, current(key));
            changelog.accept(RowKind.UPDATE_AFTER, op.row());
        } else {
            changelog.accept(RowKind.INSERT, op.row());
            live.set(key);
        }
        if (key >= version.length) {
            version = Arrays.copyOf(version, Math.max(key + 1, version.length * 2));
        }
        version[key] = op.version();
    }

    /** Every live row, in key order, as a snapshot load emits it. */
    public void forEachLive(ChangelogSink sink) throws Exception {
        for (int key = live.nextSetBit(0); key >= 0; key = live.nextSetBit(key + 1)) {
            sink.accept(RowKind.INSERT, current(key));
        }
    }

    /**
     * What a tiering of {@code spec} writes: the live rows after its first {@code baseRows} operations (the KV
     * snapshot, as +I), then the changelog of the rest.
     */
    public static void tieredChangelog(DataSpec spec, ChangelogSink sink) throws Exception {
        PkOps ops = new PkOps(spec.seed());
        PkState state = new PkState(spec.seed());
        for (long i = 0; i < spec.baseRows(); i++) {
            state.apply(ops.next());
        }
        state.forEachLive(sink);
        for (long i = spec.baseRows(); i < spec.rows(); i++) {
            state.apply(ops.next(), sink);
        }
    }

    public long liveKeys() {
        return live.cardinality();
    }

    private BenchRecord current(int key) {
        return BenchRecord.generate(seed, key, version[key]);
    }
}
