package io.lakesync.bench.data;

import java.util.SplittableRandom;

/**
 * One row of a benchmark table, independent of Fluss and Paimon row classes so that the Fluss writer in the
 * driver and the Paimon writer of the write bound produce the same values.
 */
public record BenchRecord(long id, int userId, long amount, String category, String name, String payload) {

    private static final String[] CATEGORIES = {"books", "games", "garden", "music", "sports", "tools", "toys"};
    private static final char[] LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    /** The row with key {@code id} as written by write number {@code version}: a pure function of its inputs. */
    public static BenchRecord generate(long seed, long id, long version) {
        SplittableRandom random = new SplittableRandom(seed ^ (id * GOLDEN) ^ Long.rotateLeft(version * GOLDEN, 17));
        return new BenchRecord(
                id,
                random.nextInt(1_000_000),
                random.nextLong(100_000_000L),
                CATEGORIES[random.nextInt(CATEGORIES.length)],
                text(random, 8 + random.nextInt(17)),
                text(random, 32 + random.nextInt(33)));
    }

    /**
     * Payload size in bytes as the benchmark counts it for MB/s: 4 per INT, 8 per BIGINT, the UTF-8 length of
     * each STRING (all ASCII here). The same for every contender, independent of any file format.
     */
    public long logicalBytes() {
        return 8 + 4 + 8 + category.length() + name.length() + payload.length();
    }

    private static String text(SplittableRandom random, int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = LETTERS[random.nextInt(LETTERS.length)];
        }
        return new String(chars);
    }
}
