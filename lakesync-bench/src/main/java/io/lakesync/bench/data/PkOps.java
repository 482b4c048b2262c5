package io.lakesync.bench.data;

import java.util.SplittableRandom;

/**
 * The operation stream of a primary-key table: 75% inserts of a new key, 20% upserts of a random key seen
 * before, 5% deletes of a random key seen before (a key already deleted makes the upsert an insert and the
 * delete a no-op, as in Fluss). Deterministic for a seed.
 */
public final class PkOps {

    /**
     * One operation: an upsert of {@code row}, or a delete of {@code row.id()}; {@code version} is the
     * operation's index, from which the row was generated.
     */
    public record Op(boolean delete, long version, BenchRecord row) {}

    private static final int INSERT_PERCENT = 75;
    private static final int UPDATE_PERCENT = 20;

    private final long seed;
    private final SplittableRandom random;
    private long nextKey;
    private long index;

    public PkOps(long seed) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    public Op next() {
        long version = index++;
        int dice = random.nextInt(100);
        if (nextKey == 0 || dice < INSERT_PERCENT) {
            return new Op(false, version, BenchRecord.generate(seed, nextKey++, version));
        }
        long key = random.nextLong(nextKey);
        return new Op(dice >= INSERT_PERCENT + UPDATE_PERCENT, version, BenchRecord.generate(seed, key, version));
    }
}
