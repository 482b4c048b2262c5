package io.lakesync.verify;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code __offset} values one bucket's lake rows carry, checked against the offsets they must cover: every
 * offset from the first Fluss still holds (or the first tiered, if Fluss cleaned up before it) to the lake
 * offset, each exactly once.
 */
final class LakeOffsets {

    private long[] offsets = new long[64];
    private int size;

    void add(long offset) {
        if (size == offsets.length) {
            offsets = Arrays.copyOf(offsets, size * 2);
        }
        offsets[size++] = offset;
    }

    int size() {
        return size;
    }

    /**
     * What is wrong, at most one line per kind of problem.
     *
     * @param lakeOffset the exclusive end the lake registered, -1 when never tiered
     * @param flussStartOffset the first offset Fluss still holds
     */
    List<String> problems(long lakeOffset, long flussStartOffset) {
        long[] sorted = Arrays.copyOf(offsets, size);
        Arrays.sort(sorted);
        long end = Math.max(0, lakeOffset);
        long expectedFrom = size == 0 ? flussStartOffset : Math.min(sorted[0], flussStartOffset);
        Problems duplicated = new Problems("offset", "duplicated");
        Problems missing = new Problems("offsets", "missing from the lake");
        Problems beyond = new Problems("offset", "at or past the lake offset " + end);
        long next = expectedFrom;
        for (int i = 0; i < size; i++) {
            long offset = sorted[i];
            if (i > 0 && offset == sorted[i - 1]) {
                duplicated.add(String.valueOf(offset));
                continue;
            }
            if (offset >= end) {
                beyond.add(String.valueOf(offset));
                continue;
            }
            if (offset > next) {
                missing.add(next + ".." + (offset - 1));
            }
            next = offset + 1;
        }
        if (next < end) {
            missing.add(next + ".." + (end - 1));
        }
        List<String> problems = new ArrayList<>();
        missing.describeInto(problems);
        duplicated.describeInto(problems);
        beyond.describeInto(problems);
        return problems;
    }

    /** Occurrences of one kind of problem: how many, and the first one. */
    private static final class Problems {
        private final String noun;
        private final String what;
        private String first;
        private long count;

        Problems(String noun, String what) {
            this.noun = noun;
            this.what = what;
        }

        void add(String occurrence) {
            if (count++ == 0) {
                first = occurrence;
            }
        }

        void describeInto(List<String> problems) {
            if (count == 1) {
                problems.add(noun + " " + first + " " + what);
            } else if (count > 1) {
                problems.add(count + " times " + noun + " " + what + ", first " + first);
            }
        }
    }
}
