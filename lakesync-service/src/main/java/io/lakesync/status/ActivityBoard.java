package io.lakesync.status;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * Where the engines' {@link EngineActivity} per table is kept: in memory for one instance, or in the shared state
 * so that every instance shows one truth per table, whichever instance ran its rounds.
 */
public interface ActivityBoard {

    /** The instance whose engine reports here; recorded as a table's holder when it runs a round. */
    String self();

    Optional<EngineActivity> get(String table);

    /**
     * Applies {@code event} to the table's activity ({@link EngineActivity#NONE} if it has none yet) and keeps the
     * result, atomically: no other event on the table, from this instance or another, comes between the read and
     * the write, so none is lost. Returns the result.
     */
    EngineActivity apply(String table, UnaryOperator<EngineActivity> event);

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
            @Override
            public String self() {
                return self;
            }

            @Override
            public Optional<EngineActivity> get(String table) {
                return Optional.ofNullable(tables.get(table));
            }

            @Override
            public EngineActivity apply(String table, UnaryOperator<EngineActivity> event) {
                return tables.compute(table, (k, a) -> event.apply(a == null ? EngineActivity.NONE : a));
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
