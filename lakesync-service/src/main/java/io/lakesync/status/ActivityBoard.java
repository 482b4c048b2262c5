package io.lakesync.status;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the engines' {@link EngineActivity} per table is kept: in memory for one instance, or in the shared state
 * so that every instance shows one truth per table, whichever instance ran its rounds.
 */
public interface ActivityBoard {

    /** The instance whose engine reports here; recorded as a table's holder when it runs a round. */
    String self();

    Optional<EngineActivity> get(String table);

    /**
     * Applies each of {@code changes} to its table's activity ({@link EngineActivity#NONE} if it has none yet), with
     * this instance as the holder, and keeps the results, all in one atomic step: no other change of those tables,
     * from this instance or another, comes between the reads and the writes, so none is lost. A batch is applied at
     * most once per {@code batchKey}: one whose key was applied before (a write that committed but reported an
     * error, tried again) is skipped. Returns whether it was applied now.
     */
    boolean apply(String batchKey, Map<String, ActivityChange> changes);

    /** Every table's activity. */
    Map<String, EngineActivity> all();

    /**
     * Forgets {@code dropped} tables, unless an engine recorded them since {@code listedAt} (a table of the same
     * name created after the listing that found it gone).
     */
    void forget(Set<String> dropped, Instant listedAt);

    /** A board of this instance alone, in memory. */
    static ActivityBoard inMemory(String self) {
        Map<String, EngineActivity> tables = new ConcurrentHashMap<>();
        return new ActivityBoard() {
            /** Only the batch in flight is ever tried again, so the last key applied is the one to know. */
            private String lastBatch;

            @Override
            public String self() {
                return self;
            }

            @Override
            public Optional<EngineActivity> get(String table) {
                return Optional.ofNullable(tables.get(table));
            }

            @Override
            public synchronized boolean apply(String batchKey, Map<String, ActivityChange> changes) {
                if (batchKey.equals(lastBatch)) {
                    return false;
                }
                changes.forEach((table, change) -> tables.compute(table,
                        (k, a) -> change.applyTo(a == null ? EngineActivity.NONE : a, self)));
                lastBatch = batchKey;
                return true;
            }

            @Override
            public Map<String, EngineActivity> all() {
                return Map.copyOf(tables);
            }

            @Override
            public void forget(Set<String> dropped, Instant listedAt) {
                tables.keySet().removeAll(dropped);
            }
        };
    }
}
